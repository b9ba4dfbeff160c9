package brisk

import (
	"net"

	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// Upgrade switches the connection to protocol (RFC 9110 §7.8): it checks
// that the request offers it (an "upgrade" option in Connection and
// protocol in the Upgrade list, compared case-insensitively), writes "101
// Switching Protocols" with the handler's Response fields (e.g.
// Sec-WebSocket-Accept), "Connection: Upgrade" and "Upgrade: protocol",
// and hands the connection over as Hijack does; the bytes it returns are
// the first ones of the new protocol. Fields the server manages
// (Connection, Upgrade, Content-Length, Transfer-Encoding) are dropped
// from the handler's; Date and Server are sent as in other responses.
// It does not check the method: a protocol that needs one checks it (a
// WebSocket handshake is a GET, RFC 6455 §4.1, and a router.Router
// pattern "GET /ws" also matches HEAD).
//
// It fails with ErrNoUpgrade, ErrSwitchState, ErrSwitchResponse or
// ErrHijacked, writing nothing, or with the error writing the head, after
// which the connection stays the server's and is closed when the handler
// returns.
func (c *Ctx) Upgrade(protocol string) (net.Conn, []byte, error) {
	if !offersUpgrade(&c.Request, protocol) {
		return nil, nil, ErrNoUpgrade
	}
	return c.switchProtocols(101, protocol)
}

// Tunnel answers a CONNECT request (RFC 9110 §9.3.6) with the handler's
// status code (2xx; 200 when unset), reason phrase and fields and no
// content, and hands the connection over as Hijack does: from there bytes
// flow raw both ways, and the bytes it returns are the client's first
// tunnelled ones. Content-Length and Transfer-Encoding fields of the
// handler are dropped (a 2xx to CONNECT has neither).
//
// It fails like Upgrade, with ErrNotConnect instead of ErrNoUpgrade and
// ErrSwitchResponse for a status code outside 2xx.
func (c *Ctx) Tunnel() (net.Conn, []byte, error) {
	if c.Request.head.Form != wire.AuthorityForm {
		return nil, nil, ErrNotConnect
	}
	code := c.Response.StatusCode()
	if code < 200 || code > 299 {
		return nil, nil, ErrSwitchResponse
	}
	return c.switchProtocols(code, "")
}

// offersUpgrade reports whether r asks to switch to protocol.
func offersUpgrade(r *Request, protocol string) bool {
	if r.head.Minor < 1 || protocol == "" {
		return false
	}
	return r.Header.HasToken("Connection", "upgrade") && r.Header.HasToken("Upgrade", protocol)
}

// switchProtocols writes the head of a 101 (with protocol) or of a 2xx
// to CONNECT (protocol empty), flushes it and hijacks.
func (c *Ctx) switchProtocols(code int, protocol string) (net.Conn, []byte, error) {
	cn := c.c
	switch {
	case cn.hijacked:
		return nil, nil, ErrHijacked
	case c.bw.started || !cn.body.complete():
		return nil, nil, ErrSwitchState
	}
	r := &c.Response
	fs := wire.ScanOutgoing(r.Header.fields)
	if fs.Invalid != nil || !validReason(r.reason) {
		return nil, nil, ErrSwitchResponse
	}
	w := cn.writeBuf()
	w.b = cn.appendSwitchHead(w.b, code, protocol, r, &fs)
	r.status = code // for Server.OnRequestDone
	if err := cn.flush(); err != nil {
		cn.keepAlive = false
		return nil, nil, err
	}
	return c.Hijack()
}

// appendSwitchHead appends the head of a protocol switch: status line,
// Server and Date unless the handler set them, the handler's fields but
// the managed ones, and for a 101 the Connection and Upgrade fields.
func (c *conn) appendSwitchHead(dst []byte, code int, protocol string, r *Response, fs *wire.OutgoingFields) []byte {
	dst = wire.AppendStatusLine(dst, code, r.reason)
	if c.srv.Name != "" && !fs.Present.Has(wire.FieldServer) {
		dst = wire.AppendField(dst, "Server", c.srv.Name)
	}
	if !fs.Present.Has(wire.FieldDate) {
		dst = wire.AppendField(dst, "Date", c.srv.date.get())
	}
	for i := range r.Header.fields {
		f := &r.Header.fields[i]
		if !managedFields.Has(wire.ClassifyField(f.Name)) && !ascii.EqualFold(f.Name, "Upgrade") {
			dst = wire.AppendField(dst, f.Name, f.Value)
		}
	}
	if protocol != "" {
		dst = append(dst, "Connection: Upgrade\r\nUpgrade: "...)
		dst = append(dst, protocol...)
		dst = append(dst, "\r\n"...)
	}
	return append(dst, "\r\n"...)
}
