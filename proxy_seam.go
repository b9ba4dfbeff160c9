package brisk

import (
	"context"
	"errors"
	"net"
	"time"
)

// The seams a reverse proxy (package reverseproxy) needs from the server
// and the client: ending a streamed response as cut short, seeing the
// interim responses the client skips, and taking over the connection of a
// 101 (Switching Protocols) response.

// ErrNotSwitched is returned by BodyStream.Hijack for a response other
// than 101 (Switching Protocols), or a stream already read or closed.
var ErrNotSwitched = errors.New("brisk: response is not 101 Switching Protocols")

// Abort ends the streamed response as cut short (RFC 9112 §8): the head
// is sent first if it was not, what was written is flushed, and the
// connection is then closed without a last-chunk or padding (a body
// delimited by closing the connection ends with a reset, not a FIN), so
// that the client cannot take it for complete. It is for a handler that
// relays a body from elsewhere and loses its source mid-way, such as a
// proxy whose upstream connection broke. Later writes fail; Err returns a
// non-nil error. It does not allocate.
func (w *BodyWriter) Abort() {
	if !w.started {
		w.begin()
	}
	if w.err == nil {
		w.abort()
	}
	w.c.keepAlive = false
}

// SetInterimHandler makes the client call f with each interim (1xx)
// response (RFC 9110 §15.2) received for r before the final response,
// other than the 100 (Continue) the client consumes itself while it
// sends a body with "Expect: 100-continue": for example 103 Early Hints
// (RFC 8297), which a proxy forwards. f gets the status code and the
// response's fields; h is valid only during the call (copy what you
// keep). An error from f ends the exchange with that error and closes the
// connection. Nil (the default, and after Reset) means interim responses
// are skipped. At most 10 interim responses are read in any case.
func (r *Request) SetInterimHandler(f func(code int, h *Header) error) { r.interim = f }

// Hijack takes over the connection of a 101 (Switching Protocols)
// response received with DoStream (RFC 9110 §15.2.2), as Ctx.Hijack does on
// the server side: it returns the connection and the bytes of the new
// protocol already read past the response head (the caller's, nil when
// none). The HostClient forgets the connection (it no longer counts for
// MaxConnsPerHost); its deadlines are cleared; closing it is the caller's
// job. The stream is closed. It fails with ErrNotSwitched, taking
// nothing, for any other response or once the stream was read or closed.
func (s *BodyStream) Hijack() (net.Conn, []byte, error) {
	if s.cc == nil || s.err != nil || s.resp.status != 101 {
		return nil, nil, ErrNotSwitched
	}
	cc := s.cc
	if s.stop != nil {
		s.stop()
	}
	var rest []byte
	if b := cc.in.Buffered(); len(b) > 0 {
		rest = append([]byte(nil), b...)
	}
	nc := cc.nc
	nc.SetDeadline(time.Time{})
	hc := cc.hc
	hc.mu.Lock()
	hc.dropLocked()
	hc.mu.Unlock()
	s.cc, s.err = nil, errStreamClosed
	return nc, rest, nil
}

// DoStreamTo is DoStream with the caller's BodyStream: the body is read
// through s, which the caller owns and may reuse once it is closed, so
// that a steady flow of streamed exchanges (a proxy's) allocates nothing.
// s must not be in use (not yet closed) by another exchange. On error s
// is left closed and its reads fail.
func (hc *HostClient) DoStreamTo(ctx context.Context, req *Request, resp *Response, s *BodyStream) error {
	x := ctxExchange(ctx, req, resp)
	x.stream, x.host, x.into = true, hc, s
	*s = BodyStream{err: errStreamClosed}
	_, err := x.run()
	return err
}
