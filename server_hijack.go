package brisk

import (
	"net"
	"sync"
	"time"
)

// Hijack takes the connection over from the server. It returns the
// connection and the bytes already read from it past what the server
// consumed: the unread part of the request body, if any, and anything the
// client sent after the request (a pipelined request, the first bytes of
// another protocol). The returned slice is the caller's (a copy, nil when
// none). Responses to earlier pipelined requests and a response the
// handler already started are flushed first, as they are; nothing else is
// written.
//
// After Hijack the server forgets the connection: it no longer counts for
// MaxConns, Shutdown neither waits for it nor, unless
// Server.CloseHijacked is set, closes it, and when the handler returns
// nothing is written and the connection is left open. Closing it is the
// caller's job. Its read and write deadlines are cleared. Ctx.Context
// stays as it was (cancelled by Shutdown); the Ctx itself, like every Ctx,
// is valid only until the handler returns, so the handler may keep using
// the connection on another goroutine but not the Ctx.
//
// A partly read chunked body is cut at the raw input: decoded bytes not
// yet returned by BodyReader are lost. Hijack fails with ErrHijacked when
// the connection was already taken over.
func (c *Ctx) Hijack() (net.Conn, []byte, error) {
	cn := c.c
	if cn.hijacked {
		return nil, nil, ErrHijacked
	}
	var buffered []byte
	if b, got := cn.haltWatch(); got {
		buffered = append(buffered, b)
	}
	if err := cn.flush(); err != nil {
		return nil, nil, err
	}
	if cn.rbuf != nil {
		buffered = append(buffered, cn.in.Buffered()...)
		cn.in.Discard()
	}
	nc := cn.nc
	nc.SetDeadline(time.Time{})
	cn.hookState(StateHijacked) // with the connection as the hook knew it
	cn.hijacked = true
	cn.keepAlive = false
	cn.nc, cn.raw = detachedConn{nc}, nil
	cn.deadline, cn.wdeadline = 0, 0
	s := cn.srv
	s.connDone(cn)
	if s.CloseHijacked {
		nc = s.hijacks.add(nc)
	}
	return nc, buffered, nil
}

// detachedConn stands for a hijacked connection in the server's conn
// until the handler returns: its addresses stay readable, any I/O fails
// with ErrHijacked, and Close does nothing.
type detachedConn struct{ net.Conn }

func (detachedConn) Read([]byte) (int, error)         { return 0, ErrHijacked }
func (detachedConn) Write([]byte) (int, error)        { return 0, ErrHijacked }
func (detachedConn) Close() error                     { return nil }
func (detachedConn) SetDeadline(time.Time) error      { return nil }
func (detachedConn) SetReadDeadline(time.Time) error  { return nil }
func (detachedConn) SetWriteDeadline(time.Time) error { return nil }

// hijackSet holds the hijacked connections Shutdown closes
// (Server.CloseHijacked).
type hijackSet struct {
	mu     sync.Mutex
	conns  map[*trackedConn]struct{}
	closed bool // Shutdown ran: a connection hijacked later is closed at once
}

// add tracks nc and returns the wrapper handed to the handler.
func (h *hijackSet) add(nc net.Conn) net.Conn {
	t := &trackedConn{Conn: nc, set: h}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		nc.Close()
		return t
	}
	if h.conns == nil {
		h.conns = make(map[*trackedConn]struct{})
	}
	h.conns[t] = struct{}{}
	return t
}

// closeAll closes the tracked connections, and those hijacked afterwards.
func (h *hijackSet) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for t := range h.conns {
		t.Conn.Close()
	}
	clear(h.conns)
}

// trackedConn is a hijacked connection tracked for Shutdown; closing it
// untracks it.
type trackedConn struct {
	net.Conn
	set *hijackSet
}

// Close closes the connection and forgets it.
func (t *trackedConn) Close() error {
	t.set.mu.Lock()
	delete(t.set.conns, t)
	t.set.mu.Unlock()
	return t.Conn.Close()
}

// NetConn returns the hijacked connection itself (the net/http and
// crypto/tls convention for wrappers).
func (t *trackedConn) NetConn() net.Conn { return t.Conn }
