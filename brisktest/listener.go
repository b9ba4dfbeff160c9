// Package brisktest provides an in-memory transport for testing brisk
// servers and clients, and any other net.Conn user, without sockets, and
// throwaway TLS certificates for tests (TLSCerts).
package brisktest

import (
	"context"
	"errors"
	"net"
	"sync"

	"github.com/brisk-http/brisk/internal/pipe"
)

// Listener is a net.Listener whose connections are in-memory
// pipes, for testing handlers and clients without sockets:
//
//	ln := brisktest.NewListener()
//	go srv.Serve(ln)
//	conn, _ := ln.Dial() // the client end; write requests, read responses
//
// Each connection buffers up to 64 KiB in each direction: a Write returns
// once its bytes are buffered and blocks only while the buffer is full, so
// a client may write several pipelined requests before reading the
// responses, as long as the responses it has not read fit in 64 KiB.
// After one end closes, the other reads what was written, then io.EOF,
// and its writes fail with io.ErrClosedPipe; I/O on a closed end fails
// with net.ErrClosed. Deadlines work as on sockets: an expired one fails
// I/O with an error satisfying errors.Is(err, os.ErrDeadlineExceeded)
// whose Timeout method reports true. Errors other than io.EOF are
// *net.OpError. Connections are neither syscall.Conn nor half-closable
// (no CloseWrite), so idle ones keep their buffers and the server closes
// them without lingering.
type Listener struct {
	conns  chan net.Conn
	done   chan struct{}
	closer sync.Once
}

// ErrListenerClosed is returned by Listener.Dial, DialContext and
// Accept after Close.
var ErrListenerClosed = errors.New("brisktest: listener closed")

// NewListener returns a listener ready for Dial and Accept.
func NewListener() *Listener {
	return &Listener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept waits for and returns the server end of the next dialled
// connection.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, ErrListenerClosed
	}
}

// Close stops Accept and Dial; connections already made stay open.
func (l *Listener) Close() error {
	l.closer.Do(func() { close(l.done) })
	return nil
}

// Addr returns a placeholder address.
func (l *Listener) Addr() net.Addr { return pipe.Addr{} }

// Dial connects to the listener and returns the client end. It blocks
// until Accept takes the server end.
func (l *Listener) Dial() (net.Conn, error) {
	return l.DialContext(context.Background(), "", "")
}

// DialContext is Dial with a context; network and addr are ignored, so it
// fits net/http.Transport.DialContext.
func (l *Listener) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	client, server := pipe.New()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
	case <-ctx.Done():
	}
	client.Close()
	server.Close()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return nil, ErrListenerClosed
}
