package brisk

import (
	"net"
	"time"
)

// ConnState is a state of a server connection, reported to
// Server.ConnState.
type ConnState int

// Connection states, in the order a connection goes through them: New
// once, then Active and Idle alternating, then Closed once.
const (
	// StateNew: accepted, nothing read yet. Reported on the accepting
	// goroutine, before the connection is served.
	StateNew ConnState = iota
	// StateActive: the first bytes of a request arrived (after the PROXY
	// header, if any); pipelined requests do not report it again.
	StateActive
	// StateIdle: a response was written and the connection waits for the
	// next request.
	StateIdle
	// StateHijacked: a handler took the connection over (Ctx.Hijack,
	// Upgrade, Tunnel); it is the connection's last state: brisk reports
	// no StateClosed for it.
	StateHijacked
	// StateClosed: the connection is closed (after any state, including
	// a connection refused for MaxConns or for its PROXY header).
	StateClosed
)

var connStateNames = [...]string{"new", "active", "idle", "hijacked", "closed"}

// String returns the state's lower-case name ("new", "active", ...).
func (s ConnState) String() string {
	if s < 0 || int(s) >= len(connStateNames) {
		return "ConnState(?)"
	}
	return connStateNames[s]
}

// RequestInfo describes one finished request, for Server.OnRequestDone.
// The pointer and its slices are owned by the server and valid only
// during the call: copy what you keep.
type RequestInfo struct {
	// Method is the request method.
	Method []byte
	// Route is the pattern that routed the request (Ctx.Pattern: set by
	// Router, or by Ctx.SetRoute); "" when unrouted.
	Route string
	// Status is the status code of the response.
	Status int
	// BytesRead is the number of bytes of this request consumed from the
	// connection: its head, its body as framed on the wire (chunk lines
	// and trailer section included) and any unread body the server
	// drained (RFC 9112 §6). PROXY header bytes are not counted.
	BytesRead int64
	// BytesWritten is the number of bytes of this response the connection
	// accepted (head and body); less than the response when it was cut
	// short (then Err is set).
	BytesWritten int64
	// Duration is the time from the parsed request head to the response
	// written.
	Duration time.Duration
	// Err is the first error reading the body or writing the response;
	// nil for a request served whole.
	Err error
}

// SetRoute records the route pattern that matched the request (e.g.
// "/users/{id}"), returned by Pattern and reported as RequestInfo.Route,
// for a handler routed by other means than Router (which sets it itself).
// It is cleared for each request.
func (c *Ctx) SetRoute(pattern string) { c.route.pattern = pattern }

// hookState reports a state change to Server.ConnState, if set.
func (c *conn) hookState(st ConnState) {
	if f := c.srv.ConnState; f != nil && st != c.reported {
		c.reported = st
		f(c.nc, st)
	}
}

// hookNew reports a new connection to Server.ConnState, if set.
func (s *Server) hookNew(nc net.Conn) {
	if f := s.ConnState; f != nil {
		f(nc, StateNew)
	}
}

// activate marks an idle connection active after a read that failed with
// err, reporting StateActive when the read brought a request's bytes (err
// nil); it fails when Shutdown closed the connection meanwhile.
func (c *conn) activate(err error) bool {
	if !c.state.CompareAndSwap(stateIdle, stateActive) {
		return false
	}
	if err == nil {
		c.hookState(StateActive)
	}
	return true
}

// hookIdle reports StateIdle after a request.
func (c *conn) hookIdle() {
	if c.nreq > 0 {
		c.hookState(StateIdle)
	}
}

// consumed is the number of bytes read from the connection and consumed.
func (c *conn) consumed() int64 { return c.nread - int64(c.in.Len()) }

// beginHook starts measuring a request for Server.OnRequestDone.
func (c *conn) beginHook() {
	if c.srv.OnRequestDone != nil {
		if c.epoch.IsZero() {
			c.epoch = time.Now()
		}
		c.hookStart = time.Since(c.epoch) // one monotonic clock read, not three
		c.hookWritten = c.nwritten
	}
}

// requestDone reports the request to Server.OnRequestDone, if set,
// after writing its response out.
func (c *conn) requestDone() {
	f := c.srv.OnRequestDone
	if f == nil {
		return
	}
	c.flush()
	in := &c.info
	*in = RequestInfo{
		Method:       c.ctx.Request.Method(),
		Route:        c.ctx.route.pattern,
		Status:       c.ctx.Response.StatusCode(),
		BytesRead:    c.consumed() - c.readMark,
		BytesWritten: c.nwritten - c.hookWritten,
		Duration:     time.Since(c.epoch) - c.hookStart,
		Err:          c.werr,
	}
	if in.Err == nil {
		in.Err = c.body.err
	}
	c.readMark = c.consumed()
	f(in)
	*in = RequestInfo{}
}

// connStats holds a connection's byte counts and the measurements of the
// current request for the hooks.
type connStats struct {
	nread, nwritten int64         // bytes read from and written to the connection
	readMark        int64         // consumed() at the end of the previous request
	hookWritten     int64         // nwritten at the start of the current request
	epoch           time.Time     // the first request's start: the origin of hookStart
	hookStart       time.Duration // the current request's start, from epoch
	info            RequestInfo
	reported        ConnState // the last state given to ConnState
}
