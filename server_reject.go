package brisk

import (
	"bytes"
	"net"
	"time"

	"github.com/brisk-http/brisk/wire"
)

// Rejection describes a request the server answered with an error status
// without calling the Handler: a request head that does not parse (400,
// 414, 431, 501, 505, ...), a request-target or path that does not decode
// (400), or a Content-Length above MaxBodyBytes (413). The connection is
// closed after each. See Server.OnReject. A connection refused at
// MaxConns (503) has no request and is not reported; a head cut short by
// a timeout or the client closing gets no response and is not reported
// either.
type Rejection struct {
	// Status is the status code sent.
	Status int

	// Err is why: a *wire.Error for a head that does not parse (use
	// wire.KindOf), or ErrTargetForm, ErrInvalidHost, ErrPathEscape,
	// ErrBodyTooLarge and the like.
	Err error

	// Method is the method token and Target the request-target, each
	// only when the request line got far enough for it to parse, else
	// nil. Both passed the request-line grammar (visible ASCII, no SP),
	// alias the connection's read buffer and are valid only during the
	// call: copy them to keep them.
	Method, Target []byte

	// RemoteAddr is the client's network address.
	RemoteAddr net.Addr
}

// reject reports to Server.OnReject, if set, that the current request is
// answered with status code for err without the Handler, and keeps err
// for Server.OnRequestDone (RequestInfo.Err).
func (c *conn) reject(code int, err error) {
	c.rejected = err
	f := c.srv.OnReject
	if f == nil {
		return
	}
	h := &c.ctx.Request.head
	f(Rejection{Status: code, Err: err, Method: h.Method, Target: h.Target, RemoteAddr: c.nc.RemoteAddr()})
}

// rejectHead answers a malformed head from the one error table (505 for
// the HTTP/2 connection preface, see isHTTP2Preface); I/O errors (EOF,
// timeout, close) end the connection silently. The answer to a head that
// begins with "HEAD " has no body (RFC 9110 §9.3.2).
func (c *conn) rejectHead(err error) {
	if wire.KindOf(err) == 0 || c.rbuf == nil {
		return
	}
	in := c.in.Buffered()
	code := statusForError(err).code
	if isHTTP2Preface(in) { // "PRI * HTTP/2.0": an HTTP/2 client, not a bad target
		code = 505
		err = &wire.Error{Kind: wire.ErrVersionUnsupported, Offset: len("PRI * HTTP/")}
	}
	c.reject(code, err)
	c.writeErrorOnly(code, err, bytes.HasPrefix(in, methodHead))
	c.lingerClose() // the rest of the request may be on its way
}

// methodHead is the method HEAD followed by its SP, as a request line
// begins with it.
var methodHead = []byte("HEAD ")

// rejectBusy answers a connection beyond MaxConns with 503 and closes it,
// without reading from it.
func (c *conn) rejectBusy() {
	defer c.finish()
	c.nc.SetDeadline(time.Now().Add(time.Second)) // a TLS handshake reads too
	c.writeErrorOnly(503, ErrMaxConns, false)
	c.nc.Write(c.writeBuf().b) // under the second above, not the data rates
}

// writeErrorOnly encodes an error response with the given status code
// (through Server.ErrorHandler, with err) to a request that is not served
// (no head, or none read), with
// "Connection: close"; for a HEAD request (head), without its body but
// with the Content-Length it would have, as for any response to HEAD.
func (c *conn) writeErrorOnly(code int, err error, head bool) {
	c.ctx.Request.head.Reset(nil)
	if head {
		c.ctx.Request.head.Method = methodHead[:4]
	}
	c.resetExchange()
	c.keepAlive = false
	c.answerError(code, err)
	c.writeResponse()
}
