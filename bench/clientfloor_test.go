package bench

import (
	"bytes"
	"io"
	"net"
	"net/url"
	"syscall"
	"testing"
)

// BenchmarkClientGetFloor is the lower bound of BenchmarkClientGetEndToEnd
// over TCP: the same server, GET and concurrency, with a "client" that
// does nothing but the unavoidable per request: one write of fixed
// request bytes and one read of the response, made only once the poller
// reports it (the write is made inside syscall.RawConn.Read, so no read
// returns EAGAIN), and a check that the response ends with the 13-byte
// body. No parsing, no pool, no deadline. Its ns/op and cpu-ns/op are
// what the server, the kernel and the Go scheduler cost; a real client's
// ratio to fasthttp cannot go below this benchmark's ratio to fasthttp.
func BenchmarkClientGetFloor(b *testing.B) {
	b.Run("tcp", func(b *testing.B) { benchFloor(b, tcpEndpoint(b)) })
	b.Run("tcpchild", func(b *testing.B) { benchFloor(b, tcpChildEndpoint(b)) })
}

func benchFloor(b *testing.B, ep endpoint) {
	u, err := url.Parse(ep.uri)
	if err != nil {
		b.Fatal(err)
	}
	req := []byte("GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\n\r\n")
	runClient(b, ep, func() (clientDo, error) {
		nc, err := net.Dial("tcp", u.Host)
		if err != nil {
			return nil, err
		}
		b.Cleanup(func() { nc.Close() })
		rc, err := nc.(*net.TCPConn).SyscallConn()
		if err != nil {
			return nil, err
		}
		f := &floorConn{rc: rc, req: req, buf: make([]byte, 4096)}
		f.step = f.rawStep
		return f.do, nil
	})
}

// floorConn is one connection of BenchmarkClientGetFloor.
type floorConn struct {
	rc   syscall.RawConn
	step func(fd uintptr) bool
	req  []byte
	out  []byte // request bytes not yet written
	buf  []byte
	n    int // bytes of the response read
	err  error
}

// do sends the request and reads until the response ends with the body.
// It assumes the server answers each request with one response that
// ends with clientHelloBody, and no more.
func (f *floorConn) do() (int, []byte, error) {
	f.out, f.n, f.err = f.req, 0, nil
	for !bytes.HasSuffix(f.buf[:f.n], clientHelloBody) {
		if err := f.rc.Read(f.step); err != nil {
			return 0, nil, err
		}
		if f.err != nil {
			return 0, nil, f.err
		}
	}
	return 200, f.buf[f.n-len(clientHelloBody) : f.n], nil
}

// rawStep writes the request on the first call (then waits), reads on the
// next ones.
func (f *floorConn) rawStep(fd uintptr) bool {
	if len(f.out) > 0 {
		n, err := syscall.Write(int(fd), f.out)
		if err != nil && err != syscall.EAGAIN {
			f.err = err
			return true
		}
		f.out = f.out[max(n, 0):]
		return len(f.out) > 0 // a partial write is finished by the next call
	}
	n, err := syscall.Read(int(fd), f.buf[f.n:])
	switch {
	case err == syscall.EAGAIN:
		return false
	case err != nil:
		f.err = err
	case n == 0:
		f.err = io.ErrUnexpectedEOF
	default:
		f.n += n
	}
	return true
}
