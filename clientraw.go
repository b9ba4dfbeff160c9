package brisk

import (
	"io"
	"net"
	"os"
	"syscall"
)

// rawIO sends a request and waits for its response with one system call
// fewer than net.Conn's Write then Read: a Read right after the Write
// almost always finds no response yet (EAGAIN) before it waits for one.
// Through syscall.RawConn.Read the request is written once the poller's
// readiness has been reset, so the wait that follows cannot miss the
// response, and the first read is made only when the poller says the
// response has begun to arrive. Used for connections that are a
// syscall.Conn (TCP without TLS); others use Write then Read.
type rawIO struct {
	rc    syscall.RawConn
	step  func(fd uintptr) bool // cc.rawStep, bound once (no allocation per use)
	out   []byte                // request bytes not yet written
	in    []byte                // where the response bytes go
	n     int                   // bytes read into in
	err   error                 // system call error, from write or read
	wrote bool                  // the error is from the write
}

// initRaw enables rawIO when nc exposes its file descriptor.
func (cc *clientConn) initRaw(nc net.Conn) {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return
	}
	cc.raw.rc = rc
	cc.raw.step = cc.rawStep
}

// sendRead writes cc.raw.out, then reads the first response bytes into p.
// Errors are left for the caller to wrap (ioError), as for Read.
// A write the socket does not take whole (a full send buffer) is
// finished with Write, then p is read with Read.
func (cc *clientConn) sendRead(p []byte) (int, error) {
	r := &cc.raw
	r.in, r.n, r.err, r.wrote = p, 0, nil, false
	err := r.rc.Read(r.step)
	r.in = nil
	switch {
	case err != nil: // poller: deadline passed, connection closed
		r.out = nil
		return 0, err
	case r.err != nil && r.wrote:
		r.out = nil
		return 0, os.NewSyscallError("write", r.err)
	case len(r.out) > 0:
		out := r.out
		r.out = nil
		if _, err := cc.nc.Write(out); err != nil {
			return 0, err
		}
		return cc.read(p)
	case r.err != nil:
		return 0, os.NewSyscallError("read", r.err)
	case r.n == 0:
		return 0, io.EOF
	}
	cc.sawByte = true
	return r.n, nil
}

// rawStep is the RawConn.Read callback: the first call writes the
// request and asks to wait (false) when it was taken whole; the next ones
// read, asking to wait again on EAGAIN.
func (cc *clientConn) rawStep(fd uintptr) bool {
	r := &cc.raw
	if len(r.out) > 0 {
		n, err := ignoringEINTR(syscall.Write, int(fd), r.out)
		if n > 0 {
			r.out = r.out[n:]
		}
		if err != nil && err != syscall.EAGAIN {
			r.err, r.wrote = err, true
			return true
		}
		return len(r.out) > 0 // a partial write is finished by sendRead
	}
	n, err := ignoringEINTR(syscall.Read, int(fd), r.in)
	if err == syscall.EAGAIN {
		return false
	}
	r.n, r.err = max(n, 0), err
	return true
}

func ignoringEINTR(f func(int, []byte) (int, error), fd int, p []byte) (int, error) {
	for {
		n, err := f(fd, p)
		if err != syscall.EINTR {
			return n, err
		}
	}
}
