package brisk

import "net"

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
