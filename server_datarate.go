package brisk

import (
	"crypto/tls"
	"time"

	"github.com/brisk-http/brisk/wire"
)

// Minimum data rates (Server.MinRequestBodyRate, Server.MinResponseRate),
// Kestrel's rule: once a grace period has passed, a client must move at
// least so many bytes per second, counted over the time the server spends
// waiting for it, never over the handler's own time. Neither adds a timer
// or a system call: the deadline already set for the body read, or on a
// write, is a lower bound of when the rate can first be broken, and only
// when it fires is the rate computed and the deadline moved to the next
// instant the rate could be broken.

// minRate is a resolved minimum data rate; the zero value is disabled.
type minRate struct {
	perSec int64         // bytes per second; 0: disabled
	grace  time.Duration // waiting time before the rate applies
}

// resolveRate applies the documented defaults: zero means the default,
// a negative rate or grace disables the rule.
func resolveRate(perSec int, grace time.Duration, defPerSec int, defGrace time.Duration) minRate {
	if perSec < 0 || grace < 0 {
		return minRate{}
	}
	if perSec == 0 {
		perSec = defPerSec
	}
	if grace == 0 {
		grace = defGrace
	}
	return minRate{perSec: int64(perSec), grace: grace}
}

func (m minRate) on() bool { return m.perSec > 0 }

// allowed is the waiting time within which n bytes must have moved: the
// grace period, or n bytes at the rate when that is longer.
func (m minRate) allowed(n int64) time.Duration { return max(m.grace, m.atRate(n)) }

// atRate is the time n bytes take at the rate, capped at about 292 years
// (never reached: it only has to not overflow).
func (m minRate) atRate(n int64) time.Duration {
	const capped = time.Duration(1 << 62)
	if n >= int64(capped/time.Second) {
		return capped
	}
	return time.Duration(n) * time.Second / time.Duration(m.perSec)
}

// Request body: bodyReader.armDeadline when the body starts, netRead for
// every read of body bytes from the connection.

// planDeadlines notes, when the body starts, the time its read
// deadlines (ReadTimeout, MinRequestBodyRateGrace) count from, and counts
// the body bytes that came with the head as received (as netRead counts
// bytes, chunked framing included). The earlier deadline is set by the
// first read from the connection (netRead, arm), so that a body that came
// with its head costs nothing more.
func (b *bodyReader) planDeadlines() {
	c := b.c
	b.waited, b.got, b.armed = 0, int64(c.in.Len()), false
	if b.dec.Framing() == wire.FramingLength {
		b.got = min(b.got, b.dec.Remaining()) // not a pipelined request's bytes
	}
	if c.lim.coarseBody {
		b.t0 = c.srv.date.coarseUnixNano() + int64(time.Second) // never early, see timeoutAt
	} else {
		b.t0 = time.Now().UnixNano()
	}
}

// arm computes the deadlines and sets the earlier one (none: 0).
func (b *bodyReader) arm() {
	c := b.c
	b.armed = true
	b.readBy = 0
	if d := c.lim.readTimeout; d > 0 {
		b.readBy = b.t0 + int64(d)
	}
	dl := b.readBy
	if r := &c.lim.bodyRate; r.perSec > 0 {
		if g := b.t0 + int64(r.grace); dl == 0 || g < dl {
			dl = g
		}
	}
	c.setReadDeadlineNs(dl)
}

// setDeadline makes ns (Unix ns; 0: none) the read deadline from now
// until the next request (FromHTTP's SetReadDeadline): for a body still
// to read, in place of ReadTimeout's deadline, as net/http's replaces its
// ReadTimeout, MinRequestBodyRate still applying (judged when its grace
// period ends, at once when it has).
func (b *bodyReader) setDeadline(ns int64) {
	dl := ns
	if b.dec.Framing() != wire.FramingNone && !b.dec.Done() {
		b.armed = true // arm would put ReadTimeout's back
		b.readBy = ns
		if r := &b.c.lim.bodyRate; r.perSec > 0 {
			if g := b.t0 + int64(r.grace); dl == 0 || g < dl {
				dl = g
			}
		}
	}
	b.c.setReadDeadlineNs(dl)
}

// netRead reads body bytes from the connection into p, counting the time
// waited and the bytes received for the rate; a read that times out is
// retried as long as afterTimeout allows.
func (b *bodyReader) netRead(p []byte) (int, error) {
	c := b.c
	if !b.armed {
		b.arm()
	}
	rate := c.lim.bodyRate.on()
	for {
		var start time.Time
		if rate {
			start = time.Now()
		}
		n, err := c.nc.Read(p)
		if rate {
			b.waited += time.Since(start)
			b.got += int64(n)
		}
		if n > 0 || err == nil || !isTimeout(err) {
			return n, err
		}
		if err = b.afterTimeout(err); err != nil {
			return 0, err
		}
	}
}

// afterTimeout judges a body read that timed out: err once ReadTimeout
// has passed, ErrBodyTooSlow when the client sent fewer bytes than the
// rate asks for the time waited, else nil, with the deadline moved to
// when the rate would be broken.
func (b *bodyReader) afterTimeout(err error) error {
	r := b.c.lim.bodyRate
	now := time.Now().UnixNano()
	if !r.on() || b.readBy != 0 && now >= b.readBy {
		return err
	}
	left := r.allowed(b.got) - b.waited
	if left <= 0 {
		return ErrBodyTooSlow
	}
	dl := now + int64(left)
	if b.readBy != 0 {
		dl = min(dl, b.readBy)
	}
	b.c.setReadDeadlineNs(dl)
	return nil
}

// Response: conn.armWrite before each write to the connection,
// afterWriteTimeout when one times out. A write may take the grace period
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
	probed bool  // the last deadline was a probe's
	tick   int64 // coarse clock reading the deadlines were computed at
	write  int   // conn.writes of the write the fields below describe

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
