package bench

import (
	"bytes"
	"io"
	"net"
	"sync"
	"time"
)

// fakeConn is the net.Conn every server benchmark hands to all three
// servers. Each Read returns up to perRead copies of a prepared request
// (more than one models a pipelining client), n requests in all, then
// io.EOF; a short p gets the rest on the next Read. Writes are discarded
// and counted. It has no file descriptor (no syscall.Conn), so no server
// can take a socket-specific path. Close closes the closed channel, which
// is how the benchmark learns that the server is done with it.
//
// Read and Write are called by the server only; writes and written may be
// read after closed is closed.
type fakeConn struct {
	batch   []byte // perRead copies of the request; read only, shared
	reqLen  int    // bytes of one request
	left    int    // requests not yet handed out
	off     int    // offset in batch of the unread rest of a batch; 0: none
	writes  int    // Write calls
	written int    // bytes written
	closed  chan struct{}
	once    sync.Once
}

// fakeBatch returns perRead copies of req (at least one), the batch that
// fakeConns built on it hand out per Read.
func fakeBatch(req []byte, perRead int) []byte {
	return bytes.Repeat(req, max(perRead, 1))
}

// newFakeConn returns a connection carrying n requests of reqLen bytes
// from batch (see fakeBatch), which it only reads: one batch serves any
// number of connections, so that the benchmark harness allocates no copy
// of the request per connection.
func newFakeConn(batch []byte, reqLen, n int) *fakeConn {
	return &fakeConn{batch: batch, reqLen: reqLen, left: n, closed: make(chan struct{})}
}

func (c *fakeConn) Read(p []byte) (int, error) {
	if c.left == 0 && c.off == 0 {
		return 0, io.EOF
	}
	if c.off == 0 {
		k := min(len(c.batch)/c.reqLen, c.left)
		c.left -= k
		c.off = len(c.batch) - k*c.reqLen // the last k copies
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

// fakeAddr is a TCP address so that servers that format the peer address
// (net/http does, for Request.RemoteAddr) do ordinary work.
type fakeAddr struct{}

func (fakeAddr) Network() string { return "tcp" }
func (fakeAddr) String() string  { return "127.0.0.1:1" }

// fakeListener hands out the connections sent on ch until closed. Accept
// after Close fails with net.ErrClosed, which every server treats as the
// end of Serve.
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
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: net.ErrClosed}
	}
}

func (l *fakeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *fakeListener) Addr() net.Addr { return fakeAddr{} }
