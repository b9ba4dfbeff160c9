package brisk

import (
	"io"
	"os"
	"syscall"
	"time"
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

	probe  func(fd uintptr) // cc.rawProbe, bound once; nil: no probe
	peeked bool             // rawProbe's result: the socket has input
	peek   [1]byte
}

// idleProbeAfter is how long a connection must have been idle, counted
// from the start of its last exchange, before a request that is retried
// on a closed connection probes it (see readyForReuse). Measured on
// BenchmarkClientGetEndToEnd1TCP, a probe before every reuse costs 3.5 %
// (one system call, about 0.2 us, in 5.7 us); with this threshold no
// keep-alive connection under load is probed.
const idleProbeAfter = 5 * time.Millisecond

// readyForReuse reports whether cc, idle for idle, may carry a request
// (RFC 9112 §9.2: bytes received while no request is outstanding are not
// a response, and make the connection unusable). A request that is not
// retried probes it always (idleUsable), since it could not recover from
// a connection the server has closed; one that is retried probes it once
// it has been idle for idleProbeAfter: bytes that arrive less than
// idleProbeAfter after the start of the connection's last exchange are
// not noticed before a retried request is sent. Without a probe (see
// idleUsable) the connection is taken as usable.
func (cc *clientConn) readyForReuse(idle time.Duration, retried bool) bool {
	return cc.raw.probe == nil || retried && idle < idleProbeAfter || cc.idleUsable()
}

// idleUsable reports whether an idle connection can carry a request:
// false when a non-blocking peek finds input on its socket (an EOF, a
// reset, or bytes the server sent with no request outstanding, which
// must not be taken as a response: RFC 9112 §9.2), true when it finds
// none or cannot tell (no probe on this system, TLS, not a socket). It
// costs one system call (about 0.2 us).
func (cc *clientConn) idleUsable() bool {
	if cc.raw.probe == nil {
		return true
	}
	if err := cc.raw.rc.Control(cc.raw.probe); err != nil {
		return false
	}
	return !cc.raw.peeked
}

// rawProbe is the RawConn.Control callback of idleUsable.
func (cc *clientConn) rawProbe(fd uintptr) {
	cc.raw.peeked = peekSocket(fd, &cc.raw.peek) == peekInput
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
		return cc.Read(p)
	case r.err != nil:
		return 0, os.NewSyscallError("read", r.err)
	case r.n == 0:
		return 0, io.EOF
	}
	cc.sawByte = true
	return r.n, nil
}
