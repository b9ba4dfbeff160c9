package brisk

import (
	"errors"
	"strconv"

	"github.com/brisk-http/brisk/internal/stack"
	"github.com/brisk-http/brisk/wire"
)

// ErrorHandler writes a response that brisk generates itself, in place of
// its default short plain-text body (the reason phrase and a newline):
// code is the status code sent, err why (never nil). It is called with
// c.Response cleared (see Ctx.Error) and sets what a handler would on it
// (fields, a buffered body, Ctx.JSON); the server then sends that with status code
// code, whatever the ErrorHandler set, and decides the framing and
// whether the connection closes as it would for the default body. A
// response to HEAD carries no body (RFC 9110 §9.3.2).
//
// It is called for:
//   - a request head that does not parse: 400, 414, 431, 501, 505 (err a
//     *wire.Error, see wire.KindOf). Nothing of such a head is given: the
//     Request has no method, target or fields (the method HEAD only, when
//     the line began with it, so that the answer has no body);
//   - a request-target or path that does not decode (400, ErrTargetForm,
//     ErrPathEscape, ...) and a Content-Length above Server.MaxBodyBytes
//     (413, ErrBodyTooLarge), before the Handler runs: the Request has
//     its method, target and fields;
//   - a request body that failed while the Handler read it and before
//     the response started: 408 (ErrBodyTooSlow, a timeout), 413
//     (ErrBodyTooLarge), 400 or 431 (a *wire.Error, io.ErrUnexpectedEOF)
//     — unless the Handler answered with that very status itself, then
//     its response is kept;
//   - a Handler panic before any byte of the response left (500,
//     ErrHandlerPanic), and no Handler (404, ErrNoHandler);
//   - a connection beyond Server.MaxConns (503, ErrMaxConns), before any
//     read: nothing of a request is known;
//   - Ctx.Error, through which the router's 404, 405 and redirects, the
//     JSON helpers' 400, 413 and 415, the timeout middleware's 503 and a
//     reverse proxy's 502, 503 and 504 go.
//
// It runs on the connection's goroutine before the response is sent. It
// must not stream (Ctx.BodyWriter), hijack, upgrade or send interim
// responses: a response it starts streaming is taken back when none of
// it has left, else cut short and the connection closed. A panic in it
// is logged and the default body sent. Ctx.Error (and so Ctx.DecodeJSON)
// called inside it gives the default body, without calling it again. It
// must not echo client bytes
// into the body unescaped. A response it sets with an invalid field is
// replaced by the default 500, as for any response (see Response). An
// ErrorHandler set on Server applies to HTTP/1.1, TLS, h2 and h2c
// requests alike (through the HTTP/2 bridge), behind a PROXY header too.
type ErrorHandler func(c *Ctx, code int, err error)

// Errors given to an ErrorHandler for responses brisk generates that no
// other error describes.
var (
	// ErrHandlerPanic: the Handler panicked (500). The panic value and
	// stack are logged, not given.
	ErrHandlerPanic = errors.New("brisk: handler panicked")

	// ErrNoHandler: Server.Handler is nil (404).
	ErrNoHandler = errors.New("brisk: no handler")

	// ErrMaxConns: the connection is beyond Server.MaxConns (503).
	ErrMaxConns = errors.New("brisk: too many connections")
)

// Error answers the request with code, 400..599, through the Server's
// ErrorHandler (Server.ErrorHandler; nil means the default short
// plain-text body): the status, reason phrase, body, trailer and the
// fields describing the body (Content-Type, Content-Length,
// Content-Encoding, ETag, Last-Modified, ...) set so far are dropped;
// other fields are kept, such as those middleware set before calling the
// Handler (a request ID, CORS). The responses the server generates
// without the Handler, or that replace its response (a panic, a failed
// body read), drop every field the Handler set.
// err says why, for the ErrorHandler; nil is given as an error naming
// the status. Once a streamed response (Ctx.BodyWriter) has left in part,
// it cannot be replaced: it is cut short instead (no last-chunk, see
// Server) and the connection closed. A Handler that calls Error should
// return soon after it.
func (c *Ctx) Error(code int, err error) {
	var h ErrorHandler
	if c.c != nil {
		h = c.c.srv.ErrorHandler
	}
	c.ErrorWith(h, code, err)
}

// ErrorWith is Error through h instead of the Server's ErrorHandler
// (nil h: the default body). A router calls it with its own.
func (c *Ctx) ErrorWith(h ErrorHandler, code int, err error) {
	if c.bw.started && c.c != nil && !c.bw.unsend() {
		c.bw.abort()
		c.c.keepAlive = false
		return
	}
	if err == nil {
		err = statusError(code)
	}
	c.Response.clearForError()
	if h != nil && !c.inErrorHandler {
		c.runErrorHandler(h, code, err)
	} else {
		c.Response.setErrorBody(code)
	}
}

// contentFields are the response fields that describe a body, dropped
// by Ctx.Error with the body they described (RFC 9110 §8).
var contentFields = [...]string{"Content-Type", "Content-Length", "Content-Encoding", "Content-Language",
	"Content-Location", "Content-Range", "ETag", "Last-Modified", "Transfer-Encoding"}

// clearForError clears the status, reason, body, trailer and content
// fields of r, keeping its other fields, for an error response.
func (r *Response) clearForError() {
	for _, f := range contentFields {
		r.Header.Del(f)
	}
	r.Trailer.Reset()
	r.status = 0
	r.lengthUnknown = false
	r.reason = r.reason[:0]
	r.body = r.body[:0]
}

// setErrorBody sets the status code and the default plain-text body of
// an error response on a cleared r (see setError).
func (r *Response) setErrorBody(code int) {
	r.status = code
	r.Header.Set("Content-Type", "text/plain; charset=utf-8")
	r.body = appendErrorBody(r.body, code)
}

// runErrorHandler runs h on the cleared Response, restoring code after
// it, and the default body when h panics.
func (c *Ctx) runErrorHandler(h ErrorHandler, code int, err error) {
	if c.c != nil && c.ctx == nil {
		c.ctx = c.c.srv.baseCtx // a head that did not parse: no request yet
	}
	c.inErrorHandler = true
	defer func() {
		c.inErrorHandler = false
		if p := recover(); p != nil {
			c.errorHandlerPanicked(p)
			c.Response.clearForError()
			c.Response.setErrorBody(code)
		}
	}()
	h(c, code, err)
	if c.bw.started && !c.takeBack() {
		return
	}
	c.Response.status = code
}

// takeBack takes back a response the ErrorHandler started streaming,
// reporting whether it could (nothing of it left); else it is cut short.
func (c *Ctx) takeBack() bool {
	if c.c == nil || c.bw.unsend() {
		return true
	}
	c.bw.abort()
	c.c.keepAlive = false
	return false
}

// errorHandlerPanicked logs a panic p of an ErrorHandler, with its stack.
func (c *Ctx) errorHandlerPanicked(p any) {
	if c.c == nil {
		return
	}
	c.c.srv.logger.Error("brisk: ErrorHandler panic", "panic", p, "stack", stack.Capture(0))
}

// statusError is the error Ctx.Error gives an ErrorHandler when it was
// given none: the status code's reason phrase.
type statusError int

func (e statusError) Error() string {
	if t := wire.StatusText(int(e)); t != "" {
		return "brisk: " + t
	}
	return "brisk: status " + strconv.Itoa(int(e))
}

// answerError is the server's way to answer with code and err through
// Server.ErrorHandler before or after the Handler (see ErrorHandler):
// every field the Handler set is dropped too.
func (c *conn) answerError(code int, err error) {
	if !c.ctx.bw.started {
		c.ctx.Response.Reset()
	}
	c.ctx.Error(code, err)
}

// answerBodyError answers a request whose body failed to read with err,
// unless the response has started: with the error's status (ErrorStatus)
// through Server.ErrorHandler, or with the Handler's own response when
// it set that status itself (it saw the error and answered it).
func (c *conn) answerBodyError(err error) {
	if c.ctx.bw.started {
		return
	}
	code := ErrorStatus(err)
	if c.ctx.Response.status == code {
		return
	}
	c.answerError(code, err)
}
