//go:build unix

package brisk

import (
	"net"
	"syscall"
)

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
	cc.raw.probe = cc.rawProbe
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
