package brisk

import (
	"context"
	"errors"
	"net"
	"sync"
)

// InmemoryListener is a net.Listener whose connections are in-memory pipes
// (net.Pipe), for testing handlers without sockets:
//
//	ln := brisk.NewInmemoryListener()
//	go srv.Serve(ln)
//	conn, _ := ln.Dial() // the client end; write requests, read responses
//
// Each pipe is synchronous and unbuffered: a write blocks until the other
// end reads it. A client that pipelines more requests than the server's
// read buffer holds must read responses concurrently. Deadlines work as on
// sockets. Connections are not syscall.Conn, so idle ones keep their
// buffers.
type InmemoryListener struct {
	conns  chan net.Conn
	done   chan struct{}
	closer sync.Once
}

// ErrListenerClosed is returned by Dial and Accept after Close.
var ErrListenerClosed = errors.New("brisk: in-memory listener closed")

// NewInmemoryListener returns a listener ready for Dial and Accept.
func NewInmemoryListener() *InmemoryListener {
	return &InmemoryListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept waits for and returns the server end of the next dialled pipe.
func (l *InmemoryListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, ErrListenerClosed
	}
}

// Close stops Accept and Dial; connections already made stay open.
func (l *InmemoryListener) Close() error {
	l.closer.Do(func() { close(l.done) })
	return nil
}

// Addr returns a placeholder address.
func (l *InmemoryListener) Addr() net.Addr { return inmemoryAddr{} }

// Dial connects to the listener and returns the client end. It blocks
// until Accept takes the server end.
func (l *InmemoryListener) Dial() (net.Conn, error) {
	return l.DialContext(context.Background(), "", "")
}

// DialContext is Dial with a context; network and addr are ignored, so it
// fits net/http.Transport.DialContext.
func (l *InmemoryListener) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	client, server := net.Pipe()
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

type inmemoryAddr struct{}

func (inmemoryAddr) Network() string { return "inmemory" }
func (inmemoryAddr) String() string  { return "inmemory" }
