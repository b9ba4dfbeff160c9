package brisk

import (
	"time"

	"github.com/brisk-http/brisk/internal/connio"
	"github.com/brisk-http/brisk/wire"
)

// Reading from the connection: waiting, idle, for a request (its buffers
// given back to the pools), the head under ReadHeaderTimeout, the read
// deadlines, and the source every read goes through (a request body's
// reads are timed by the body reader, server_bodyreader.go).

// readHead parses the head of the request whose first bytes are buffered
// (awaitRequest read them, unless they came with the previous request)
// into c.ctx.Request; waitErr is awaitRequest's error, returned as is.
func (c *conn) readHead(waitErr error) error {
	if waitErr != nil {
		return waitErr
	}
	c.in.Compact() // nothing aliases the buffer between requests
	c.body.reading = false
	h := &c.ctx.Request.head
	h.Reset(c.rbuf.fields)
	c.headTimer = false
	for {
		n, err := c.srv.parser.ParseRequest(c.in.Buffered(), h)
		if err == nil {
			c.in.Consume(n)
			return nil
		}
		if wire.KindOf(err) != wire.ErrNeedMore {
			return err
		}
		if err := c.fillHead(); err != nil {
			return err
		}
	}
}

// awaitRequest flushes the responses written before, then waits (idle,
// holding no buffer when the connection allows it) for the next request
// and reads its first bytes. When the client is trusted to wait for the
// responses, the flush happens inside the wait (sendAndWait).
func (c *conn) awaitRequest() error {
	if rec, ok := c.sendsInWait(c.idleDeadline()); ok {
		// The idle deadline is computed again: the write took at most
		// one system call, so that it is the one of the usual path.
		waited, err := c.sendAndWait(c.idleDeadline(), rec)
		if err != nil {
			return err
		}
		if waited {
			return c.readAfterWait()
		}
	}
	if err := c.flush(); err != nil {
		return err
	}
	if !c.enterIdle() {
		return errConnClosed
	}
	c.setReadTimeout(c.lim.idleTimeout)
	if c.raw != nil {
		if err := c.waitReadable(); err != nil {
			return err
		}
	}
	return c.readAfterWait()
}

// readAfterWait reads the first bytes of the request c waited for.
func (c *conn) readAfterWait() error {
	c.takeReadBuf()
	err := c.in.Fill(0, 0) // still idle: Shutdown may close c meanwhile
	if !c.activate(err) {
		return errConnClosed
	}
	return err
}

// idleDeadline returns the read deadline of a wait for the next request
// starting now, in Unix ns (0: none), as setReadTimeout sets it.
func (c *conn) idleDeadline() int64 {
	if d := c.lim.idleTimeout; d > 0 {
		return c.timeoutAtNs(d)
	}
	return 0
}

// enterIdle ends the last request (its body no longer read, nothing
// buffered: the next read fills from the start) and marks c idle, as the
// wait for the next request begins (awaitRequest, park); false when the
// server is shutting down (c is then closed).
func (c *conn) enterIdle() bool {
	return c.enterIdleAs(stateIdle)
}

// enterIdleAs is enterIdle into state st: stateIdle, or stateIdleBlind
// for a wait that did not peek (sendFirst).
func (c *conn) enterIdleAs(st int32) bool {
	c.in.Compact()
	c.body.reading = false
	if !c.setIdleAs(st) {
		return false
	}
	c.hookIdle()
	return true
}

// setIdle marks c idle, unless the server is shutting down.
func (c *conn) setIdle() bool { return c.setIdleAs(stateIdle) }

// setIdleAs is setIdle into state st (stateIdle or stateIdleBlind).
func (c *conn) setIdleAs(st int32) bool {
	c.markIdle()
	c.state.Store(st)
	if c.srv.closing.Load() {
		c.state.Store(stateClosed)
		return false
	}
	return true
}

// closeIfIdle closes c if it is waiting for a request (for Shutdown). A
// wait that did not peek (stateIdleBlind) may have missed a request
// already there: c is then woken (its read deadline moved to the past)
// to serve it, as a wait that peeked would have, and closed otherwise.
func (c *conn) closeIfIdle() {
	if c.state.CompareAndSwap(stateIdle, stateClosed) {
		c.nc.Close()
		return
	}
	if c.state.Load() != stateIdleBlind {
		return
	}
	if c.hasInput() {
		c.nc.SetReadDeadline(time.Unix(1, 0)) // sendAndWait peeks again
	} else if c.state.CompareAndSwap(stateIdleBlind, stateClosed) {
		c.nc.Close()
	}
}

// waitReadable waits until the connection has input, giving the buffers
// back to the pools if it has to wait.
func (c *conn) waitReadable() error {
	c.waited = false
	return c.raw.Read(c.readable)
}

// onReadable is the raw-read callback: true ends the wait. The first call
// peeks without blocking; only when nothing is there are the buffers
// released and the poller asked to wait. With response bytes pending
// (sendAndWait), the first call writes them instead (sendFirst).
func (c *conn) onReadable(fd uintptr) bool {
	if c.waited {
		return true
	}
	if w := c.wbuf; w != nil && len(w.b) > 0 {
		return c.sendFirst(fd)
	}
	if peekSocket(fd, &c.peek) != peekEmpty {
		return true
	}
	c.releaseBuffers()
	c.waited = true
	return false
}

// takeReadBuf gives the input a pooled read buffer if it has none.
func (c *conn) takeReadBuf() {
	if c.rbuf == nil {
		c.rbuf = c.srv.pools.getReadBuf()
		c.in.SetStorage(c.rbuf.b)
	}
}

// releaseBuffers returns the buffers to the pools, dropping any input.
// After c.in.Detach (a hijack takes the buffered bytes) the read
// buffer's storage stays with its new owner: only the field storage is
// pooled again.
func (c *conn) releaseBuffers() {
	if c.rbuf != nil {
		c.in.Discard()
		c.rbuf.b = c.in.Release() // the storage, grown or not
		c.srv.pools.putReadBuf(c.rbuf)
		c.rbuf = nil
	}
	if c.wbuf != nil {
		c.srv.pools.putWriteBuf(c.wbuf)
		c.wbuf = nil
	}
}

// fillHead reads more head bytes under ReadHeaderTimeout, making room
// (the partial head moves to the front, or the buffer grows up to
// MaxHeaderBytes: errHeaderCapacity past it).
func (c *conn) fillHead() error {
	if !c.headTimer {
		c.headTimer = true
		c.setReadTimeout(c.lim.readHeaderTimeout)
	}
	err := c.in.Fill(0, c.lim.maxHeader)
	if err == connio.ErrFull {
		return errHeaderCapacity
	}
	return err
}

// coarseTimeout is the shortest timeout measured with the coarse clock.
const coarseTimeout = 2 * time.Second

// setReadTimeout sets the read deadline d from now; d <= 0 clears it.
// Timeouts of coarseTimeout and more are measured with the Server's
// one-second clock, rounded up by a second so they never fire early, and
// the deadline is not reset within the same second: a keep-alive request
// then costs neither a clock read nor a deadline update.
func (c *conn) setReadTimeout(d time.Duration) {
	var ns int64
	if d > 0 {
		ns = c.timeoutAtNs(d)
	}
	c.setReadDeadlineNs(ns)
}

// setReadDeadlineNs sets the read deadline ns, in Unix ns (0: none),
// unless it is set.
func (c *conn) setReadDeadlineNs(ns int64) {
	c.deferredRead = false
	if ns == c.deadline {
		return
	}
	var dl time.Time
	if ns != 0 {
		dl = time.Unix(0, ns)
	}
	c.nc.SetReadDeadline(dl)
	c.deadline = ns
}

// deferReadDeadline makes ns (Unix ns; 0: none) the read deadline of the
// next read through source, unless another is set before it.
func (c *conn) deferReadDeadline(ns int64) {
	c.deferredRead, c.deferredAt = true, ns
}

// timeoutAtNs returns the deadline, in Unix ns, for a timeout d > 0 from
// now: from the coarse clock, a second later, for d >= coarseTimeout.
func (c *conn) timeoutAtNs(d time.Duration) int64 {
	if d >= coarseTimeout {
		return c.srv.date.coarseUnixNano() + int64(d+time.Second)
	}
	return time.Now().UnixNano() + int64(d)
}

// peekResult is what a non-blocking peek at an idle connection's socket
// found (peekSocket).
type peekResult uint8

const (
	peekUnknown peekResult = iota // cannot tell: no probe here, not a socket, interrupted
	peekEmpty                     // nothing to read yet
	peekInput                     // bytes, an EOF or a connection error for the next read
)

// source is the connection as the conn's input (conn.in) reads it. Every
// read flushes the pending responses first, so that a pipelining client
// waiting for them is never deadlocked; the bytes of a request body are
// read under its deadlines and rate (bodyReader.netRead), the others
// under the deadline set on the connection (conn.setReadTimeout). A byte
// the watcher read (watcher.held) comes first.
type source conn

// Read implements io.Reader, counting the bytes for the hooks (nread).
func (s *source) Read(p []byte) (int, error) {
	n, err := s.read(p)
	s.nread += int64(n)
	return n, err
}

func (s *source) read(p []byte) (int, error) {
	c := (*conn)(s)
	if w := c.watch; w != nil && w.held && len(p) > 0 {
		w.held = false
		p[0] = w.b[0]
		return 1, nil
	}
	if err := c.flush(); err != nil {
		return 0, err
	}
	if c.deferredRead {
		c.setReadDeadlineNs(c.deferredAt)
	}
	if c.body.reading {
		return c.body.netRead(p)
	}
	return c.nc.Read(p)
}
