package brisk

import (
	"io"
	"net"
	"os"
	"sync"
	"time"
)

// fakeConn is a net.Conn that replays a prepared request, perRead copies
// per Read (pipelining when > 1), n requests in all, then reports EOF; it
// discards writes, counting them. It mirrors the fake connection of
// fasthttp's server benchmarks so that bench/ can compare like with like.
type fakeConn struct {
	batch   []byte // perRead copies of the request
	reqLen  int
	left    int // requests not yet returned
	off     int // offset in batch of a partially returned batch
	writes  int
	written int
	closed  chan struct{}
	once    sync.Once
}

func newFakeConn(req []byte, n, perRead int) *fakeConn {
	c := &fakeConn{reqLen: len(req), left: n, closed: make(chan struct{})}
	for range perRead {
		c.batch = append(c.batch, req...)
	}
	return c
}

func (c *fakeConn) Read(p []byte) (int, error) {
	if c.left == 0 && c.off == 0 {
		return 0, io.EOF
	}
	if c.off == 0 {
		k := min(len(c.batch)/c.reqLen, c.left)
		c.left -= k
		c.off = len(c.batch) - k*c.reqLen // start of the k requests returned
	}
	n := copy(p, c.batch[c.off:])
	c.off += n
	if c.off == len(c.batch) {
		c.off = 0
	}
	return n, nil
}

func (c *fakeConn) Write(p []byte) (int, error) {
	c.writes++
	c.written += len(p)
	return len(p), nil
}

func (c *fakeConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *fakeConn) LocalAddr() net.Addr                { return fakeAddr{} }
func (c *fakeConn) RemoteAddr() net.Addr               { return fakeAddr{} }
func (c *fakeConn) SetDeadline(t time.Time) error      { return nil }
func (c *fakeConn) SetReadDeadline(t time.Time) error  { return nil }
func (c *fakeConn) SetWriteDeadline(t time.Time) error { return nil }

type fakeAddr struct{}

func (fakeAddr) Network() string { return "fake" }
func (fakeAddr) String() string  { return "fake" }

// fakeListener hands out the connections sent on ch.
type fakeListener struct {
	ch   chan net.Conn
	done chan struct{}
	once sync.Once
}

func newFakeListener() *fakeListener {
	return &fakeListener{ch: make(chan net.Conn), done: make(chan struct{})}
}

func (l *fakeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, os.ErrClosed
	}
}

func (l *fakeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *fakeListener) Addr() net.Addr { return fakeAddr{} }

// stepConn serves one request per step for allocation tests: Read waits
// for a step, Write reports the response bytes.
type stepConn struct {
	fakeConn
	req  []byte
	in   chan struct{}
	out  chan int
	done chan struct{}
}

func newStepConn(req []byte) *stepConn {
	return &stepConn{req: req, in: make(chan struct{}), out: make(chan int, 1), done: make(chan struct{}),
		fakeConn: fakeConn{closed: make(chan struct{})}}
}

func (c *stepConn) Read(p []byte) (int, error) {
	select {
	case <-c.in:
		return copy(p, c.req), nil
	case <-c.done:
		return 0, io.EOF
	}
}

func (c *stepConn) Write(p []byte) (int, error) {
	c.out <- len(p)
	return len(p), nil
}
