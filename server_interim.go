package brisk

import "github.com/brisk-http/brisk/wire"

// SendInterim sends an interim response (RFC 9110 §15.2) before the final
// one: the status line with code, then the fields of h (nil: none), for
// example 103 Early Hints with Link fields (RFC 8297) so that the client
// can start fetching while the handler prepares the final response. It
// is written and flushed at once, after any pipelined responses still
// pending; it may be called several times. The final response is
// unaffected: repeat in c.Response.Header the fields it should carry
// (passing &c.Response.Header itself is allowed).
//
// code must be 100 or 102..199: 101 Switching Protocols is refused (it
// belongs to a protocol upgrade), as is any other code, with
// ErrInterimStatus. A field of h with an invalid name or value fails with
// ErrInterimField, and nothing is sent; Content-Length, Transfer-Encoding
// and Connection fields are not sent (an interim response has no content
// and does not change the connection). Once the final response has
// started (Ctx.BodyWriter) it fails with ErrResponseStarted, and once
// the connection is taken over (Hijack, Upgrade, Tunnel) with
// ErrHijacked, writing nothing. To an
// HTTP/1.0 request, to which a server must not send a 1xx response, it
// sends nothing and returns nil. Otherwise it returns the write error, if
// any (the connection is then closed after the handler returns).
//
// brisk's Client skips up to 10 interim responses before the final one.
func (c *Ctx) SendInterim(code int, h *Header) error {
	switch {
	case code < 100 || code > 199 || code == 101:
		return ErrInterimStatus
	case c.bw.started:
		return ErrResponseStarted
	case c.Request.head.Minor == 0:
		return nil
	}
	var fields []wire.Field
	var drop wire.ClassSet
	if h != nil {
		fs := scanFields(h)
		if fs.Invalid != nil {
			return ErrInterimField
		}
		fields, drop = h.fields, managedFields&fs.Present
	}
	cn := c.c
	w := cn.writeBuf()
	w.b = wire.AppendStatusLine(w.b, code, "")
	w.b = wire.AppendFields(w.b, fields, drop)
	w.b = append(w.b, "\r\n"...)
	if code == 100 {
		cn.body.expect = false // sent: BodyReader must not send it again
	}
	return cn.flush()
}
