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

// Drain takes the server out of service gracefully, for a load balancer
// to move its clients elsewhere: from the call on, Draining reports true
// (answer readiness checks with it), the server keeps accepting and
// serving, and every response carries "Connection: close", so each
// keep-alive connection ends after its next response. When DrainDelay
// has passed, the connections idle then (keep-alive ones waiting for a
// request, parked ones) are closed; once no connection is left, or when
// ctx is done, Drain calls Shutdown(ctx) and returns its result: nil
// when every connection closed, ctx.Err() when some were still busy
// (they are left to finish). HTTP/2 connections get a GOAWAY at once (when Server.HTTP2
// has a Drain method, as package h2's does) and close once their open
// streams end.
func (s *Server) Drain(ctx context.Context) error {
	s.draining.Store(true)
	notBefore := time.Now().Add(s.drainDelay())
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for idleClosed := false; s.active.Load() > 0 || time.Now().Before(notBefore); {
		s.drainConns()
		if !idleClosed && !time.Now().Before(notBefore) {
			// Once: a connection idle later has just been answered with
			// "Connection: close", or is new and has yet to send.
			s.closeIdle()
			s.closeParked()
			idleClosed = true
		}
		select {
		case <-ctx.Done():
			return s.Shutdown(ctx)
		case <-tick.C:
		}
	}
	return s.Shutdown(ctx)
}

// drainDelay resolves DrainDelay.
func (s *Server) drainDelay() time.Duration {
	return limit.Timeout(s.DrainDelay, DefaultDrainDelay)
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
