// Package fakenet provides the in-process connection and listener that
// brisk's server benchmarks and allocation tests (and those of the bench
// module, which compares brisk with other servers on the same fakes) hand
// to a server: a Conn that replays a prepared request and discards what is
// written, and a Listener fed by the test. Neither has a file descriptor
// (no syscall.Conn), so no server can take a socket-specific path.
package fakenet

import (
	"bytes"
	"io"
	"net"
	"sync"
	"time"
)

// Conn is a net.Conn whose Reads return up to perRead copies of a request
// at a time (more than one models a pipelining client), n requests in all,
// then io.EOF; a short p gets the rest on the next Read. Writes are
// discarded and counted. Read and Write are for the server only; Writes
// and Written may be read once Done is closed.
type Conn struct {
	batch   []byte // perRead copies of the request; read only, shared
	reqLen  int    // bytes of one request
	left    int    // requests not yet handed out
	off     int    // offset in batch of the unread rest of a batch; 0: none
	writes  int    // Write calls
	written int    // bytes written
	done    chan struct{}
	once    sync.Once
}

// Batch returns perRead copies of req (at least one): the bytes that Conns
// built on it hand out per Read.
func Batch(req []byte, perRead int) []byte {
	return bytes.Repeat(req, max(perRead, 1))
}

// NewConn returns a connection carrying n requests of reqLen bytes from
// batch (see Batch), which it only reads: one batch serves any number of
// connections, so a benchmark allocates no copy of the request per
// connection.
func NewConn(batch []byte, reqLen, n int) *Conn {
	return &Conn{batch: batch, reqLen: reqLen, left: n, done: make(chan struct{})}
}

// Read hands out the next requests; see Conn.
func (c *Conn) Read(p []byte) (int, error) {
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

// Write discards p, counting it.
func (c *Conn) Write(p []byte) (int, error) {
	c.writes++
	c.written += len(p)
	return len(p), nil
}

// Close closes Done; it may be called more than once.
func (c *Conn) Close() error {
	c.once.Do(func() { close(c.done) })
	return nil
}

// Done is closed when the server closes the connection.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Writes returns the number of Write calls; read it after Done.
func (c *Conn) Writes() int { return c.writes }

// Written returns the number of bytes written; read it after Done.
func (c *Conn) Written() int { return c.written }

// LocalAddr returns Addr{}.
func (c *Conn) LocalAddr() net.Addr { return Addr{} }

// RemoteAddr returns Addr{}.
func (c *Conn) RemoteAddr() net.Addr { return Addr{} }

// SetDeadline does nothing: a Conn never blocks.
func (c *Conn) SetDeadline(time.Time) error { return nil }

// SetReadDeadline does nothing.
func (c *Conn) SetReadDeadline(time.Time) error { return nil }

// SetWriteDeadline does nothing.
func (c *Conn) SetWriteDeadline(time.Time) error { return nil }

// Addr is the address of both ends of a Conn: a TCP address, so that
// servers that format the peer address (net/http does, for
// Request.RemoteAddr) do their ordinary work.
type Addr struct{}

// Network returns "tcp".
func (Addr) Network() string { return "tcp" }

// String returns "127.0.0.1:1".
func (Addr) String() string { return "127.0.0.1:1" }

// Listener hands out the connections given to Push until closed. Accept
// after Close fails with an error wrapping net.ErrClosed, which every
// server treats as the end of Serve.
type Listener struct {
	ch   chan net.Conn
	done chan struct{}
	once sync.Once
}

// NewListener returns an open Listener.
func NewListener() *Listener {
	return &Listener{ch: make(chan net.Conn), done: make(chan struct{})}
}

// Push hands c to the next Accept, waiting for it; it reports false when
// the listener is closed first.
func (l *Listener) Push(c net.Conn) bool {
	select {
	case l.ch <- c:
		return true
	case <-l.done:
		return false
	}
}

// Accept returns the next pushed connection.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: net.ErrClosed}
	}
}

// Close ends Accept; it may be called more than once.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr returns Addr{}.
func (l *Listener) Addr() net.Addr { return Addr{} }
