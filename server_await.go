package brisk

import (
	"net"
	"time"
)

// Writing the response inside the wait for the next request. A wait
// through RawConn.Read starts by discarding the readiness the runtime's
// poller noted while nobody waited (prepareRead, in Go's internal poll
// package), so a request that came since the last read would not wake
// it: the usual wait therefore peeks first (onReadable), one system call
// that finds nothing (EAGAIN) on nearly every keep-alive request. A client that
// waits for each response before it sends its next request cannot have
// sent one before the response leaves, so when the response is written
// from inside the wait, after that discard, the peek is not needed: its
// next request wakes the wait (as brisk's client writes its request from
// inside the wait for the response, client_raw_unix.go).
//
// A client that sends ahead (pipelining, or an EOF) while a handler runs
// is not seen by a wait that does not peek. So a connection is trusted to
// skip the peek only after its first sendProbation requests, whose waits
// write from inside the wait too but peek before they write (as cheap as
// the usual wait, and exact: input there before the response left was
// sent ahead), and only as long as its client was never seen sending
// ahead (pipelined). A trusted wait's read deadline is at most
// sendWaitBound away: when it passes, the wait peeks (input found then
// marks the connection pipelined) and goes on to its own deadline. A
// request sent ahead by a trusted client is thus answered at most
// sendWaitBound late, once per connection.

// sendProbation is the number of requests of a connection whose waits
// peek before the response is written, to see whether its client sends
// ahead: one that pipelines has requests queued from its first exchanges.
const sendProbation = 3

// sendWaitBound is the longest a wait that did not peek goes before it
// does: its deadline is the coarse clock's reading plus sendWaitBound,
// between about 1 and 2 s from now, and changes once per tick of the
// clock, not per request (see setReadTimeout).
const sendWaitBound = 2 * time.Second

// sendsInWait reports whether the wait for c's next request, whose read
// deadline is dl (Unix ns; 0: none), may write the pending response
// itself (sendAndWait), and if so returns the wait's own deadline: dl
// while c is on probation (its wait peeks), else at most sendWaitBound
// away. Only when c is a plain TCP or Unix socket (the write goes to its
// fd: no wrapper is bypassed), its client never sent ahead (pipelined), a
// response is pending (the client waits for it) and no hook runs in the
// wait: OnRequestDone has delivered (requestDone flushes when nothing is
// buffered) and ConnState is unset (a hook that closed the connection
// from inside the wait would deadlock on the read lock).
func (c *conn) sendsInWait(dl int64) (rec int64, ok bool) {
	if !canPeek || c.raw == nil || c.pipelined || c.werr != nil || c.in.Len() > 0 ||
		c.wbuf == nil || len(c.wbuf.b) == 0 || c.srv.ConnState != nil || c.done != nil && c.done.n != 0 {
		return 0, false
	}
	switch c.nc.(type) {
	case *net.TCPConn, *net.UnixConn:
	default:
		return 0, false
	}
	if !c.trusted() {
		return dl, true
	}
	rec = c.srv.date.coarseUnixNano() + int64(sendWaitBound)
	return rec, dl == 0 || dl > rec
}

// trusted reports whether c's waits that write the response may skip
// their peek: c is past its probation (and not pipelined: sendsInWait).
func (c *conn) trusted() bool { return c.nreq > sendProbation }

// sendAndWait writes the pending response from inside the wait for the
// next request (sendFirst), under the write deadlines of any write
// (armWrite), then waits for input under the read deadline rec, and, for
// a wait that did not peek, from rec on, having peeked, under dl (Unix
// ns; 0: none; later than rec). It reports whether it waited, and the
// wait's error (errConnClosed when the server shuts down). When the
// socket did not take the response whole in one write, or the peek of a
// wait on probation found input, it does not wait: the response is
// written as flush writes it (c.werr then set on failure), nothing else
// done, and the caller goes on with the usual flush and wait.
func (c *conn) sendAndWait(dl, rec int64) (waited bool, err error) {
	c.setReadDeadlineNs(rec)
	c.writes++ // as write: the one write of the pending bytes
	c.armWrite()
	c.waited = false
	err = c.raw.Read(c.readable)
	if !c.waited {
		if w := c.wbuf; w != nil && len(w.b) > 0 { // not taken whole, or not tried
			c.werr = c.writeArmed(w.b, nil)
			w.b = w.b[:0]
			c.written(c.werr)
			return false, nil
		}
		return false, errConnClosed // sendFirst found the server shutting down
	}
	if !c.trusted() { // peeked: an ordinary wait
		return true, err
	}
	if !c.state.CompareAndSwap(stateIdleBlind, stateIdle) {
		if err == nil {
			err = errConnClosed // Shutdown closed c meanwhile
		}
		return true, err
	}
	if err == nil || !isTimeout(err) {
		return true, err
	}
	// rec passed (or Shutdown woke c, closeIfIdle): input may be there
	// whose readiness the wait discarded.
	c.setReadDeadlineNs(dl)
	if err = c.waitReadable(); err == nil && !c.waited {
		c.pipelined = true // input came while the wait did not look
	}
	return true, err
}

// sendFirst is the first call of sendAndWait's raw-read callback. On
// probation it peeks first, and on input marks c pipelined and ends the
// wait (true) without writing. It writes the pending response and, when
// the socket took it whole, marks c idle (stateIdleBlind when it did not
// peek), gives its buffers back and asks to wait (false). Otherwise it
// ends the wait, the rest of the response left in the write buffer.
func (c *conn) sendFirst(fd uintptr) bool {
	st := stateIdleBlind
	if !c.trusted() {
		if peekSocket(fd, &c.peek) != peekEmpty {
			c.pipelined = true // sent before its response: it pipelines
			return true
		}
		st = stateIdle
	}
	w := c.wbuf
	n := writeSocket(fd, w.b)
	c.nwritten += int64(n)
	if n < len(w.b) {
		w.b = w.b[:copy(w.b, w.b[n:])]
		return true
	}
	w.b = w.b[:0]
	c.written(nil) // nothing pending (sendsInWait): no hook runs
	if !c.enterIdleAs(st) {
		return true
	}
	c.releaseBuffers()
	c.waited = true
	return false
}

// noteSentAhead marks c pipelined when its client sent bytes ahead of the
// response to the request just served: input left in the buffer (a
// pipelined request) or held by the client-close watch.
func (c *conn) noteSentAhead() {
	if c.in.Len() > 0 || c.watch != nil && c.watch.held {
		c.pipelined = true
	}
}
