package reverseproxy

import (
	"errors"
	"io"
	"net/http"
	"time"
	"unsafe"

	"github.com/brisk-http/brisk"
)

// copyBufSize is the size of the buffer a body is relayed through.
const copyBufSize = 64 << 10

// exchange is one proxied request: the request sent upstream, its
// response, the Record, and scratch storage, pooled by the Proxy so that
// a steady flow of requests allocates nothing.
type exchange struct {
	p       *Proxy
	c       *brisk.Ctx
	req     brisk.Request
	resp    brisk.Response
	stream  brisk.BodyStream
	ctx     exchangeCtx
	rec     Record
	body    bodyIn
	conn    connectionTokens
	buf     []byte // field values being built
	copyBuf []byte
	interim func(int, *brisk.Header) error // x.sendInterim, bound once
	upgrade bool                           // the request offers a protocol upgrade
}

// Serve forwards the request of c to an upstream and relays the response;
// it is a brisk.Handler (srv.Handler = p.Serve).
func (p *Proxy) Serve(c *brisk.Ctx) {
	p.once.Do(p.setup)
	x, _ := p.exchanges.Get().(*exchange)
	if x == nil {
		x = &exchange{p: p, copyBuf: make([]byte, copyBufSize)}
		x.ctx.rec = &x.rec
		x.interim = x.sendInterim
	}
	x.c = c
	x.rec = Record{Start: time.Now()}
	x.serve()
	if x.p.OnComplete != nil {
		x.rec.Total = time.Since(x.rec.Start)
		x.p.OnComplete(c, &x.rec)
	}
	x.c, x.body = nil, bodyIn{}
	p.exchanges.Put(x)
}

// serve runs the exchange.
func (x *exchange) serve() {
	p, c := x.p, x.c
	switch {
	case string(c.Request.Method()) == "CONNECT":
		x.connect()
		return
	case p.setupErr != nil:
		x.fail(&Error{Phase: PhasePick, Status: http.StatusInternalServerError, Err: p.setupErr})
		return
	}
	x.build()
	p.budget.deposit(p.lim.ratio)
	s, u, e := x.send()
	if e != nil {
		x.fail(e)
		return
	}
	defer u.pending.Add(-1)
	if x.resp.StatusCode() == http.StatusSwitchingProtocols {
		x.switchProtocols(s, u)
		return
	}
	x.relay(s, u)
}

// send sends the request to an upstream, and to others after a failure
// that allows it (see Proxy.MaxRetries), until a response head arrives:
// to the same upstream again when it is the only one left and it closed
// a connection before any response byte.
// On success the chosen upstream's pending count includes the request.
func (x *exchange) send() (*brisk.BodyStream, *upstream, *Error) {
	var tried uint64
	var last *Error
	again := false // the upstreams may be tried again, once
	for {
		i := x.p.pick(tried)
		if i < 0 && again {
			i, again = x.p.pick(0), false
		}
		if i < 0 {
			if last != nil {
				return nil, nil, last
			}
			return nil, nil, &Error{Phase: PhasePick, Status: http.StatusServiceUnavailable, Err: ErrNoUpstream}
		}
		u := x.p.ups[i]
		if i < 64 {
			tried |= 1 << i
		}
		x.rec.Upstream, x.rec.Status, x.rec.Dial, x.rec.TLS = u.name, 0, 0, 0
		x.rec.Attempts++
		if x.p.UpstreamHost {
			x.req.SetHost(u.host)
		}
		start := time.Now()
		u.pending.Add(1)
		s, err := &x.stream, u.hc.DoStreamTo(&x.ctx, &x.req, &x.resp, &x.stream)
		x.rec.Head = time.Since(start)
		if err == nil {
			x.rec.Status = x.resp.StatusCode()
			return s, u, nil
		}
		u.pending.Add(-1)
		last = x.attemptError(err, u)
		if !x.retry(err) {
			return nil, nil, last
		}
		again = x.rec.Attempts == 1 && closedEarly(err)
	}
}

// attemptError classifies the failure of an attempt on u, and keeps
// requests away from u when the failure is u's.
func (x *exchange) attemptError(err error, u *upstream) *Error {
	e := &Error{Phase: PhaseRequest, Upstream: u.name, Status: http.StatusBadGateway, Err: err}
	var de *dialError
	if errors.As(err, &de) {
		e.Phase = de.phase
	}
	switch {
	case errors.Is(err, brisk.ErrRequestBody):
		e.Status = brisk.ErrorStatus(x.body.err) // the client's request is at fault
		return e
	case errors.Is(err, brisk.ErrTimeout):
		e.Status = http.StatusGatewayTimeout
	}
	u.penalize()
	return e
}

// retry reports whether a failed attempt may be repeated on another
// upstream: the request never reached the upstream (the connection could
// not be opened) and its body was not read, or the connection was closed
// before any response byte and the request is resendable; within
// MaxRetries and the retry budget.
func (x *exchange) retry(err error) bool {
	if x.rec.Attempts > x.p.lim.retries || x.body.read || errors.Is(err, brisk.ErrRequestBody) {
		return false
	}
	var de *dialError
	safe := errors.As(err, &de) || x.req.Resendable() && closedEarly(err)
	return safe && x.p.budget.withdraw(x.p.lim.ratio)
}

// closedEarly reports a connection closed by the upstream before any
// byte of the response: a keep-alive connection it closed while the
// request was on its way (RFC 9112 §9.3.1), which the same upstream may
// take on a new connection.
func closedEarly(err error) bool {
	return errors.Is(err, brisk.ErrConnectionClosed) && !errors.Is(err, io.ErrUnexpectedEOF)
}

// relay copies the response head and streams the body to the client. A
// body that breaks upstream is cut short downstream (BodyWriter.Abort).
func (x *exchange) relay(s *brisk.BodyStream, u *upstream) {
	defer s.Close()
	c := x.c
	if !x.copyHead() {
		x.fail(&Error{Phase: PhaseRequest, Upstream: u.name, Status: http.StatusBadGateway,
			Err: errBadStatus})
		return
	}
	w := c.BodyWriter()
	flush := !x.resp.Header.Has("Content-Length")
	for first := true; ; first = false {
		n, rerr := s.Read(x.copyBuf)
		if first && !flush && rerr == nil && n > 0 && n < len(x.copyBuf) {
			n, rerr = x.readMore(s, n)
		}
		if n > 0 {
			if _, werr := w.Write(x.copyBuf[:n]); werr != nil {
				x.rec.Sent = w.Sent()
				x.rec.Err = &Error{Phase: PhaseResponse, Upstream: u.name, Err: werr}
				return // the server closes the connection; s.Close closes the upstream's
			}
			if flush {
				w.Flush()
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			w.Abort()
			u.penalize()
			x.rec.Sent = w.Sent()
			x.rec.Err = &Error{Phase: PhaseResponse, Upstream: u.name, Err: rerr}
			return
		}
	}
	copyTrailer(&c.Response.Trailer, &x.resp.Trailer)
	x.rec.Sent = w.Sent()
}

// readMore reads once more into x.copyBuf after its first n bytes. The
// first read of a body with a Content-Length returns the bytes that came
// with the head; when the rest follows, the head and all of it leave in
// one write (one system call, one wake-up of the client, instead of two).
// The head waits for the upstream's next bytes, not for the buffer to
// fill: a read returns what has arrived.
func (x *exchange) readMore(s *brisk.BodyStream, n int) (int, error) {
	m, err := s.Read(x.copyBuf[n:])
	return n + m, err
}

// errBadStatus: the upstream's final status code is outside 200..599.
var errBadStatus = errors.New("reverseproxy: upstream status code out of range")

// copyHead makes the upstream's response head the client's: status code,
// reason phrase and fields but the hop-by-hop ones, and Via. It reports
// false for a status code the client cannot be sent.
func (x *exchange) copyHead() bool {
	r, in := &x.c.Response, &x.resp
	code := in.StatusCode()
	if code < 200 || code > 599 {
		return false
	}
	r.SetStatusCode(code)
	r.SetReason(bstr(in.Reason()))
	x.copyFields(&r.Header, &in.Header)
	if x.p.lim.fwd&ForwardVia != 0 {
		x.buf = appendVia(x.buf[:0], "HTTP/1.1", x.p.lim.via)
		r.Header.AddBytes(viaName, x.buf)
	}
	return true
}

var viaName = []byte("Via")

// copyFields adds the fields of src to dst but the hop-by-hop ones
// (including those src's Connection fields name).
func (x *exchange) copyFields(dst, src *brisk.Header) {
	x.conn.load(src)
	for name, v := range src.All() {
		if hopByHop(name) || x.conn.names(name) {
			continue
		}
		dst.AddBytes(name, v)
	}
}

// sendInterim forwards an interim response of the upstream's to the
// client (Request.SetInterimHandler); 100 (Continue) is not passed here.
func (x *exchange) sendInterim(code int, h *brisk.Header) error {
	x.c.SendInterim(code, h) // an error is the client's; the final response will show it
	return nil
}

// fail answers a request that could not be proxied.
func (x *exchange) fail(e *Error) {
	x.rec.Err = e
	c := x.c
	if x.p.ErrorHandler != nil {
		x.p.ErrorHandler(c, e)
		return
	}
	c.Error(e.Status, e)
}

// bstr returns the bytes of b as a string without copying, for the
// setters of brisk.Request and Response, which copy it.
func bstr(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
