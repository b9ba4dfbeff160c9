package brisk

import (
	"crypto/tls"
	"time"
)

// Writing to the connection: the response goes into the write buffer
// (its head by server_head.go, its body by the BodyWriter,
// server_bodywriter.go), which is flushed before the next blocking read,
// under WriteTimeout and MinResponseRate.

// writeResponse encodes the response into the write buffer; it is flushed
// before the next blocking read, so pipelined responses leave in one write.
func (c *conn) writeResponse() {
	// A head encoded from now on says "Connection: close" when draining
	// (appendHead); one already sent keeps its promise unless Shutdown.
	if c.srv.closing.Load() {
		c.keepAlive = false
	}
	if c.ctx.bw.started {
		c.ctx.bw.finish()
		return
	}
	c.writeBuffered(&c.ctx.Response)
}

// writeBuf returns the write buffer, taking one from the pool if needed.
func (c *conn) writeBuf() *buffer {
	if c.wbuf == nil {
		c.wbuf = c.srv.pools.getWriteBuf()
	}
	return c.wbuf
}

// sendBytes appends p to the write buffer when it fits in the free space,
// else writes the buffer and p, straight from its storage, together: no
// copy, and one system call on a connection that gathers writes (TCP).
func (c *conn) sendBytes(p []byte) {
	w := c.writeBuf()
	if len(p) <= cap(w.b)-len(w.b) {
		w.b = append(w.b, p...)
		return
	}
	switch {
	case c.werr != nil:
		return
	case len(w.b) == 0:
		c.werr = c.write(p, nil) // nothing to gather: no empty write first
	default:
		c.werr = c.write(w.b, p)
		w.b = w.b[:0]
	}
	c.written(c.werr)
}

// flush writes the pending response bytes.
func (c *conn) flush() error {
	if c.wbuf == nil || len(c.wbuf.b) == 0 || c.werr != nil {
		return c.werr
	}
	c.werr = c.write(c.wbuf.b, nil)
	c.wbuf.b = c.wbuf.b[:0]
	c.written(c.werr) // OnRequestDone for the responses now written
	return c.werr
}

// write writes p, then q (nil for none), to the connection under
// WriteTimeout and MinResponseRate (armWrite, afterWriteTimeout below;
// writePieces over TLS), measured like the read timeouts (see
// setReadTimeout).
func (c *conn) write(p, q []byte) error {
	c.writes++
	if c.lim.respRate.on() && c.wholeWrite() {
		return c.writePieces(p, q)
	}
	c.armWrite()
	return c.writeArmed(p, q)
}

// writeArmed is write once the deadline is armed, in a frame of its own
// so that arming it (a timer of the runtime's) happens with write's small
// frame on the stack, not this loop's (see conn.loop on stack depth).
func (c *conn) writeArmed(p, q []byte) error {
	for {
		var n int
		var err error
		if len(q) == 0 {
			n, err = c.nc.Write(p)
		} else {
			n, err = c.writev(p, q)
		}
		c.nwritten += int64(n)
		if err == nil || !isTimeout(err) {
			return err
		}
		if err = c.afterWriteTimeout(n, err); err != nil {
			return err
		}
		if n < len(p) {
			p = p[n:]
		} else {
			p, q = q[n-len(p):], nil
		}
	}
}

// writev writes p and q, neither empty, in one gathering write
// (net.Buffers: writev on TCP, successive Writes elsewhere).
func (c *conn) writev(p, q []byte) (int, error) {
	w := c.writeBuf() // its iovs: WriteTo's receiver escapes
	w.iov = [2][]byte{p, q}
	w.iovs = w.iov[:]
	n, err := w.iovs.WriteTo(c.nc)
	w.iov = [2][]byte{}
	return int(n), err
}

// Write deadlines and MinResponseRate: conn.armWrite before each write
// to the connection, afterWriteTimeout when one times out. A write may take the grace period
// (which also absorbs the filling of the socket buffers); from then on,
// after one more grace period of slack for the way TCP reports progress,
// the bytes the client takes must average the rate. A write blocked on a
// full socket buffer only learns what the client took when the kernel
// wakes it, so before each judgment a fresh write is tried (probe) to
// hand the kernel what it has room for. The handler's time between writes
// never counts. A connection that cannot go on with a write that timed
// out (TLS) is written in pieces instead, each with its own deadline
// (writePieces).

// writeClock is the deadline state of the write in progress.
type writeClock struct {
	start  int64 // when the write began (never later than it), Unix ns
	by     int64 // WriteTimeout deadline, Unix ns; 0 when none
	done   int64 // bytes of the write accepted by the connection, at timeouts
	baseAt int64 // end of the grace period, Unix ns; 0 before it
	base   int64 // done at baseAt
	tick   int64 // coarse clock reading the deadlines were computed at
	write  int   // conn.writes of the write the fields below describe
	probed bool  // the last deadline was a probe's

	// The deadline FromHTTP's handler set (SetWriteDeadline), in place
	// of WriteTimeout's until the handler returns.
	handlerBy  int64 // Unix ns; 0: none
	handlerSet bool
}

// probeWait is how long a probing write may wait for room in the socket
// buffer before the rate is judged.
const probeWait = time.Millisecond

// armWrite sets the write deadline for a write starting now: WriteTimeout
// from now, or MinResponseRateGrace from now when sooner; unchanged when
// neither applies. When both are measured with the coarse clock, they are
// computed once per tick of it.
func (c *conn) armWrite() {
	if !c.lim.coarseWrite {
		c.setWriteDeadlines()
	} else if p := c.srv.date.cur.Load(); p == nil || p.ns != c.wclock.tick {
		c.setWriteDeadlines() // a new tick of the coarse clock
	}
}

// setWriteDeadlines computes the deadlines of a write starting now and
// sets the earlier one.
func (c *conn) setWriteDeadlines() {
	w := &c.wclock
	if p := c.srv.date.cur.Load(); p != nil {
		w.tick = p.ns
	}
	w.by = c.writeBy()
	dl := w.by // Unix ns; 0: none
	if r := &c.lim.respRate; r.perSec > 0 {
		g := c.timeoutAtNs(r.grace)
		w.start = g - int64(r.grace)
		if dl == 0 || g < dl {
			dl = g
		}
	}
	if dl != 0 && dl != c.wdeadline {
		c.setWriteDeadline(dl)
	}
}

// writeBy returns the deadline of a write starting now, in Unix ns (0:
// none): WriteTimeout from now, or the handler's (setHandlerWriteDeadline).
func (c *conn) writeBy() int64 {
	switch {
	case c.wclock.handlerSet:
		return c.wclock.handlerBy
	case c.lim.writeTimeout > 0:
		return c.timeoutAtNs(c.lim.writeTimeout)
	}
	return 0
}

// setHandlerWriteDeadline makes ns (Unix ns; 0: none) the deadline of
// the writes from now until endHandlerWriteDeadline, in place of
// WriteTimeout's (FromHTTP's SetWriteDeadline: net/http's replaces its
// WriteTimeout); MinResponseRate still applies.
func (c *conn) setHandlerWriteDeadline(ns int64) {
	w := &c.wclock
	w.handlerBy, w.handlerSet = ns, true
	w.tick = 0 // the next write computes its deadlines
	if ns != c.wdeadline {
		var t time.Time
		if ns != 0 {
			t = time.Unix(0, ns)
		}
		c.nc.SetWriteDeadline(t)
		c.wdeadline = ns
	}
}

// endHandlerWriteDeadline puts the server's write deadlines back after
// setHandlerWriteDeadline.
func (c *conn) endHandlerWriteDeadline() {
	w := &c.wclock
	if !w.handlerSet {
		return
	}
	w.handlerBy, w.handlerSet, w.tick = 0, false, 0
	if c.wdeadline != 0 {
		c.nc.SetWriteDeadline(time.Time{})
		c.wdeadline = 0
	}
}

// afterWriteTimeout judges a write that timed out having accepted n more
// bytes: err once its deadline (WriteTimeout's, or the handler's) has
// passed, ErrResponseTooSlow when the client took fewer bytes than the
// rate asks, else nil with the deadline moved to the next probe or to
// when the rate would be broken.
func (c *conn) afterWriteTimeout(n int, err error) error {
	w := &c.wclock
	if w.write != c.writes { // the first timeout of this write
		w.write, w.done, w.baseAt, w.probed = c.writes, 0, 0, false
	}
	w.done += int64(n)
	w.tick = 0 // the deadline moves: the next write computes its own
	r := c.lim.respRate
	now := time.Now().UnixNano()
	if !r.on() || w.by != 0 && now >= w.by {
		return err
	}
	if !w.probed {
		w.probed = true
		c.setWriteDeadline(now + int64(probeWait))
		return nil
	}
	w.probed = false
	if w.baseAt == 0 {
		w.baseAt, w.base = now, w.done
	}
	// After baseAt and one more grace period, each byte taken allows
	// 1/rate seconds: the rate is broken at breaks without more bytes.
	breaks := w.baseAt + int64(r.grace+r.atRate(w.done-w.base))
	if now >= breaks {
		return ErrResponseTooSlow
	}
	dl := max(breaks, now+int64(probeWait))
	if w.by != 0 {
		dl = min(dl, w.by)
	}
	c.setWriteDeadline(dl)
	return nil
}

// setWriteDeadline sets the write deadline to ns, Unix ns.
func (c *conn) setWriteDeadline(ns int64) {
	c.nc.SetWriteDeadline(time.Unix(0, ns))
	c.wdeadline = ns
}

// wholeWrite reports whether a write that timed out cannot be resumed:
// on a *tls.Conn, "after a Write has timed out, the TLS state is corrupt
// and all future writes will return the same error".
func (c *conn) wholeWrite() bool {
	_, ok := c.nc.(*tls.Conn)
	return ok
}

// wholePiece is the most writePieces hands the connection under one
// deadline, in bytes: a TLS record's plaintext.
const wholePiece = 16 << 10

// writePieces writes p, then q, under MinResponseRate to a connection
// that cannot resume a write that timed out (wholeWrite): wholePiece
// bytes at a time, each given the time its bytes take at the rate, or
// the grace period when longer, and all within WriteTimeout from the
// start (measured like the read timeouts, see setReadTimeout). A piece
// that times out ends the write with ErrResponseTooSlow, or with the
// deadline's error once WriteTimeout has passed. A client that takes
// nothing is so cut after one piece's time, not the whole write's.
func (c *conn) writePieces(p, q []byte) error {
	r := c.lim.respRate
	by := c.writeBy() // Unix ns; 0: none
	for _, b := range [2][]byte{p, q} {
		for len(b) > 0 {
			k := min(len(b), wholePiece)
			dl := c.timeoutAtNs(r.allowed(int64(k))) // coarse from 2 s: set once per tick
			if by != 0 {
				dl = min(dl, by)
			}
			if dl != c.wdeadline {
				c.setWriteDeadline(dl)
			}
			n, err := c.nc.Write(b[:k])
			c.nwritten += int64(n)
			if err != nil {
				if isTimeout(err) && (by == 0 || time.Now().UnixNano() < by) {
					err = ErrResponseTooSlow
				}
				return err
			}
			b = b[k:]
		}
	}
	return nil
}
