package brisk

import (
	"context"
	"time"

	"github.com/brisk-http/brisk/internal/limit"
)

// DefaultDrainDelay is the least time Drain serves before it shuts down
// when Server.DrainDelay is zero: more than two probes of a load balancer
// checking readiness every 2 s (HAProxy's default "inter"), and a few
// seconds for Kubernetes to remove a terminating pod's endpoints.
const DefaultDrainDelay = 5 * time.Second

// DrainIdleQuiet is how long a keep-alive connection must have been idle
// (its last response sent, nothing received since) before Drain closes
// it: a client that sends its next request as the server closes would
// see the request fail (RFC 9112 §9.6), so Drain closes only connections
// whose client has been quiet this long, and leaves the others to end
// after their next response, which says "Connection: close".
const DrainIdleQuiet = time.Second

// drainPoll is the period of Drain's polls (HTTP/2 drain, the count of
// connections left); drainSweep that of its sweeps over the idle
// connections, which hold the server's lock.
const (
	drainPoll  = 10 * time.Millisecond
	drainSweep = 100 * time.Millisecond
)

// Drain takes the server out of service gracefully, for a load balancer
// to move its clients elsewhere: from the call on, Draining reports true
// (answer readiness checks with it), the server keeps accepting and
// serving, and every response whose head is sent from then on carries
// "Connection: close" (buffered, streamed and file bodies alike), so each
// keep-alive connection ends after its next response. A response whose
// head went out before the call, announcing keep-alive, is finished and
// its connection kept: its next response closes it.
//
// When DrainDelay has passed, keep-alive connections waiting for a
// request (parked ones included) are closed once their client has been
// quiet for DrainIdleQuiet or more, never sooner, so that a request sent
// on an idle connection does not race its close; a connection with
// unread input in its socket is served instead (not looked at over TLS,
// where crypto/tls reads ahead, nor on connections without a file
// descriptor: the quiet time alone counts there). A new connection
// counts as idle from its accept until its first request. Once no connection is left, or when
// ctx is done, Drain calls Shutdown(ctx) and returns its result: nil
// when every connection closed, ctx.Err() when some were still busy
// (they are left to finish). HTTP/2 connections get a GOAWAY at once
// (when Server.HTTP2 has a Drain method, as package h2's does) and close
// once their open streams end.
func (s *Server) Drain(ctx context.Context) error {
	s.draining.Store(true)
	start := time.Now()
	notBefore := start.Add(s.drainDelay())
	tick := time.NewTicker(drainPoll)
	defer tick.Stop()
	var swept time.Time
	for parkedClosed := false; s.active.Load() > 0 || time.Now().Before(notBefore); {
		s.drainConns()
		if now := time.Now(); !now.Before(notBefore) {
			if now.Sub(swept) >= drainSweep {
				s.closeQuiet(now)
				swept = now
			}
			// Parked connections were idle for ParkIdleAfter when parked,
			// and none is parked while draining (mayPark).
			if !parkedClosed && now.Sub(start) >= DrainIdleQuiet {
				s.closeParked()
				parkedClosed = true
			}
		}
		select {
		case <-ctx.Done():
			return s.Shutdown(ctx)
		case <-tick.C:
		}
	}
	return s.Shutdown(ctx)
}

// closeQuiet closes the connections idle, with nothing to read, since
// DrainIdleQuiet before now. The idle time is taken on the coarse clock
// (at most about a second behind), so a second is added to be sure.
func (s *Server) closeQuiet(now time.Time) {
	before := now.Add(-DrainIdleQuiet - coarseLag).UnixNano()
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		if st := c.state.Load(); (st == stateIdle || st == stateIdleBlind) && c.idleSince.Load() <= before && !c.hasInput() {
			c.closeIfIdle()
		}
	}
}

// coarseLag is the most the coarse clock (dateCache) lags behind
// time.Now: its refresh period, with margin for a late tick.
const coarseLag = 1100 * time.Millisecond

// markIdle records when c became idle, on the coarse clock.
func (c *conn) markIdle() { c.idleSince.Store(c.srv.date.coarseUnixNano()) }

// hasInput reports whether c's socket has bytes (or an EOF) to read,
// looked at from another goroutine than c's; false when it cannot tell
// (TLS, no file descriptor).
func (c *conn) hasInput() bool {
	if c.peekRaw == nil {
		return false
	}
	var b [1]byte
	r := peekEmpty
	c.peekRaw.Control(func(fd uintptr) { r = peekSocket(fd, &b) })
	return r == peekInput
}

// drainDelay resolves DrainDelay.
func (s *Server) drainDelay() time.Duration {
	return limit.Timeout(s.DrainDelay, DefaultDrainDelay)
}

// closeIfDraining turns keep-alive off for the response whose head is
// being encoded when the server drains or shuts down, so that the head
// says "Connection: close".
func (c *conn) closeIfDraining() {
	if c.srv.draining.Load() || c.srv.closing.Load() {
		c.keepAlive = false
	}
}

// Draining reports whether Drain (or Shutdown) was called: the server
// should be reported not ready.
func (s *Server) Draining() bool { return s.draining.Load() || s.closing.Load() }

// ReadinessHandler answers 200 "ready" until the server drains, then 503
// "draining", with "Cache-Control: no-store": mount it on the path the
// load balancer probes (e.g. /readyz).
func (s *Server) ReadinessHandler(c *Ctx) {
	c.Response.Header.Set("Cache-Control", "no-store")
	if s.Draining() {
		c.Response.SetStatusCode(503)
		c.Response.WriteString("draining\n")
		return
	}
	c.Response.WriteString("ready\n")
}
