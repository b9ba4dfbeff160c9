package brisk

import (
	"net"
	"net/netip"
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
//
// It is the same record for every protocol: HTTP/1.x over TCP or TLS,
// and HTTP/2 (h2, h2c) and HTTP/3 streams served through the bridges of
// packages h2 and h3, one call per stream that reached brisk, with the differences stated
// per field. A request whose connection a handler took over (Ctx.Hijack,
// Upgrade, Tunnel) is reported when the handler returns, with what was
// written before the hand-over.
type RequestInfo struct {
	// Method is the request method, as received.
	Method []byte
	// Proto is the protocol version, as Ctx.Proto reports it: "HTTP/1.0",
	// "HTTP/1.1", "HTTP/2.0" or "HTTP/3.0".
	Proto string
	// Target is the request-target exactly as received (Request.Target;
	// RFC 9112 §3.2): not decoded, query included.
	Target []byte
	// RemoteAddr is the client's network address, as Ctx.RemoteAddr
	// reports it: the source address of the PROXY header the connection
	// began with, if any, else the connection's peer.
	RemoteAddr net.Addr
	// Referer and UserAgent are the request's Referer and User-Agent
	// field values as received (RFC 9110 §10.1.3, §10.1.5), nil when
	// absent or when the head did not parse: for access logs in the
	// combined format. Not escaped: escape them for a log.
	Referer, UserAgent []byte
	// Route is the pattern that routed the request (Ctx.Pattern, set by
	// the router with Ctx.SetRoute); "" when unrouted.
	Route string
	// Status is the status code of the response, including one the
	// server set after the Handler: 408 or 400 when reading the body
	// failed before the Handler sent anything (see Err).
	Status int
	// BytesRead is the number of bytes of this request consumed from the
	// connection: its head, its body as framed on the wire (chunk lines
	// and trailer section included) and any unread body the server
	// drained (RFC 9112 §6). PROXY header bytes are not counted. On
	// HTTP/2, where HPACK compresses the field section and frames carry
	// the body, it is the head in its HTTP/1.1 form (request line and
	// fields, uncompressed) plus the body bytes the stream's DATA frames
	// carried and the handler read; frame headers, padding and the
	// connection's own frames are not counted.
	BytesRead int64
	// BytesWritten is the number of bytes of this response (head, body,
	// and any interim 1xx response sent before it) that the connection's
	// Write accepted: all of them, unless the connection failed or closed
	// first; then it is fewer and Err is set. On HTTP/2 it is the heads
	// in HTTP/1.1 form (status line and fields, uncompressed) plus the
	// body bytes given to the stream, as for BytesRead; trailer fields are
	// not counted.
	BytesWritten int64
	// Duration is the time from the parsed request head to the response's
	// last byte accepted by the connection's Write (or to the failure that
	// ended it). Requests whose heads were parsed with no read from the
	// connection in between (pipelined, arriving together) share the
	// first one's start, and responses handed over in one write share
	// their end: the clock is read about once per read and once per
	// write, not per request. For a request whose handler took the
	// connection over, it ends when the handler returns.
	Duration time.Duration
	// Err is the first error of the request, nil for a request served
	// whole: why the server answered it without the Handler (the error
	// given to Server.OnReject: ErrBodyTooLarge for a Content-Length
	// above MaxBodyBytes, ErrTargetForm, ...), else the error reading its
	// body (a timeout, a *wire.Error for bad chunk framing,
	// ErrBodyTooLarge, ...), else the error writing the response (then
	// the response is cut short).
	Err error
	// Host is the host the request is for (Request.Host: the authority
	// of an absolute-form request-target, else the Host field); nil when
	// absent.
	Host []byte
	// RequestID is the value of the request's X-Request-ID field (the
	// first line, as received: not validated beyond the field grammar of
	// RFC 9110 §5.5), nil when absent or empty: for access logs. Not
	// escaped: escape it for a log.
	RequestID []byte
	// ClientIP is the client's address as Ctx.ClientIP gives it when
	// Server.TrustedProxies is set: the forwarding field of a trusted
	// peer, else RemoteAddr's IP. Without TrustedProxies, where the
	// client is always the peer, it is the zero Addr (not computed): take
	// RemoteAddr's IP.
	ClientIP netip.Addr
}

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

// monoEpoch is the origin of the hooks' monotonic timestamps: one clock
// read per timestamp (time.Since), not the two of time.Now.
var monoEpoch = time.Now()

// beginHook starts measuring a request for Server.OnRequestDone: its
// start time, read once per read from the connection, and where its
// response begins in the connection's output.
func (c *conn) beginHook() {
	if c.srv.OnRequestDone != nil {
		if c.nread != c.startRead {
			c.startRead = c.nread
			c.start = time.Since(monoEpoch)
		}
		c.respBegin = c.queued()
	}
}

// queued is the number of response bytes given to the connection so far:
// written, or waiting in the write buffer.
func (c *conn) queued() int64 {
	if c.wbuf == nil {
		return c.nwritten
	}
	return c.nwritten + int64(len(c.wbuf.b))
}

// requestDone records the finished request for Server.OnRequestDone, if
// set. While a pipelined request waits in the read buffer, its completion
// is queued, to be delivered by the write that hands the response's last
// byte to the connection (written), so that pipelined responses keep
// leaving in one write; a full queue, or a method and request-target
// that do not fit the queue's copy of them, flush early. Otherwise the
// connection's next step would be to flush: requestDone flushes and
// delivers at once, with no copy.
func (c *conn) requestDone() {
	if c.srv.OnRequestDone == nil {
		return
	}
	if c.done == nil {
		c.done = new(doneQueue)
	}
	q := c.done
	e := q.push()
	in := &e.info
	in.Method, in.Target = c.ctx.Request.Method(), c.ctx.Request.Target()
	in.Proto = c.ctx.Request.Proto()
	in.RemoteAddr = c.remoteAddr()
	in.Route = c.ctx.route.pattern
	in.Status = c.ctx.Response.StatusCode()
	read := c.consumed()
	in.BytesRead, c.readMark = read-c.readMark, read
	in.Err = c.rejected
	if in.Err == nil {
		in.Err = c.body.err
	}
	if in.Err == nil {
		in.Err = c.werr // a write failed: this response is cut short
	}
	c.loggedFields(in)
	c.rejected = nil
	e.begin, e.end = c.respBegin, c.queued()
	e.start = c.start
	if c.in.Len() > 0 && e.end > c.nwritten && c.werr == nil && q.n < len(q.e) && q.keep(in) {
		return // delivered by the batched flush
	}
	c.flush()
	c.deliver(c.werr) // what the flush did not: nothing of it is left to write
}

// written delivers, after a write of the write buffer (flush, or
// sendBytes with the body that follows it) ended with err, the
// completions whose responses are now written (all of them when err is
// set: nothing more will be written). Only such a write carries bytes of
// responses already complete: sendFile flushes first.
func (c *conn) written(err error) {
	if c.done != nil && c.done.n != 0 {
		c.deliver(err)
	}
}

// deliver calls Server.OnRequestDone for the pending completions in
// order, up to the first whose response is not all written, or for all of
// them, with err for those cut short, when err is set; one clock read ends
// them all.
func (c *conn) deliver(err error) {
	q := c.done
	if q == nil || q.n == 0 {
		return
	}
	f := c.srv.OnRequestDone
	now := time.Since(monoEpoch)
	i := 0
	for ; i < q.n; i++ {
		e := &q.e[i]
		short := e.end > c.nwritten
		if short && err == nil {
			break
		}
		in := &e.info
		in.BytesWritten = max(min(c.nwritten, e.end)-e.begin, 0)
		in.Duration = now - e.start
		if c.http2 {
			c.streamCounts(in)
		}
		if short && in.Err == nil {
			in.Err = err
		}
		f(in)
		if in.Err != nil {
			in.Err = nil // keep no error the connection is done with
		}
	}
	if i == q.n {
		q.n, q.text = 0, q.text[:0]
		return
	}
	q.n = copy(q.e[:], q.e[i:q.n])
}

// maxPending is the number of finished requests whose responses may wait
// in the write buffer for the connection's batched flush while
// Server.OnRequestDone is set: enough for the responses a default write
// buffer batches; more flush early.
const maxPending = 32

// maxPendingText is the room, in bytes, for the copies of the methods and
// request-targets of the requests waiting in a doneQueue: 128 bytes each
// for maxPending requests. A request whose method and target do not fit
// flushes early, the queue emptied.
const maxPendingText = 4 << 10

// doneQueue holds a connection's finished requests whose responses are
// not all written yet, oldest first. A conn allocates it at its first
// request with Server.OnRequestDone set and keeps it.
type doneQueue struct {
	e    [maxPending]completion
	n    int
	text []byte // the waiting requests' methods and targets, back to back: maxPendingText of storage, made at first use and reused
}

// push returns the next free entry; the queue is not full.
func (q *doneQueue) push() *completion {
	q.n++
	return &q.e[q.n-1]
}

// keep copies the byte slices of in (Method, Target and the logged
// fields, see loggedFields), which the request's storage does not
// outlive, into q.text and points them there; it reports false, and
// leaves them, when they do not fit in maxPendingText.
func (q *doneQueue) keep(in *RequestInfo) bool {
	parts := [...]*[]byte{&in.Method, &in.Target, &in.Host, &in.Referer, &in.UserAgent, &in.RequestID}
	n := len(q.text)
	for _, p := range parts {
		n += len(*p)
	}
	if n > maxPendingText {
		return false
	}
	if q.text == nil {
		q.text = make([]byte, 0, maxPendingText) // never grown: earlier copies stay in place
	}
	for _, p := range parts {
		*p = q.copyText(*p)
	}
	return true
}

// copyText appends b to q.text, which has room for it, and returns the
// copy (nil for a nil b).
func (q *doneQueue) copyText(b []byte) []byte {
	if b == nil {
		return nil
	}
	i := len(q.text)
	q.text = append(q.text, b...)
	return q.text[i:len(q.text):len(q.text)]
}

// completion is a finished request waiting for its response to be
// written.
type completion struct {
	info       RequestInfo // all but BytesWritten and Duration
	begin, end int64       // the response's first and past-last byte, in queued() counts
	start      time.Duration
}

// connStats holds a connection's byte counts and the measurements of the
// current request for the hooks.
type connStats struct {
	nread, nwritten int64         // bytes read from and written to the connection
	readMark        int64         // consumed() at the end of the previous request
	startRead       int64         // nread when start was taken
	start           time.Duration // the current request's start, from monoEpoch
	respBegin       int64         // queued() at the start of the current request
	rejected        error         // why the current request was answered without the Handler (reject)
	reported        ConnState     // the last state given to ConnState
}
