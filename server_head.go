package brisk

import (
	"strconv"

	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// Encoding of the response head (RFC 9112 §4, §6; RFC 9110 §6.4.1, §8.6).

// managedFields are the handler's fields the server replaces by its own
// framing and connection fields.
var managedFields = wire.Classes(wire.FieldConnection, wire.FieldContentLength, wire.FieldTransferEncoding)

// scanFields validates the handler's fields and notes the ones the server
// manages.
func scanFields(h *Header) wire.OutgoingFields { return wire.ScanOutgoing(h.fields) }

// headPlan is the decided shape of a response head.
type headPlan struct {
	status   int
	framing  wire.Framing // FramingClose: delimited by closing the connection
	length   int64        // for FramingLength
	scan     wire.OutgoingFields
	omitBody bool // HEAD: Content-Length but no body bytes
}

// validate checks what the handler set; a non-empty reason is returned
// for the log.
func (r *Response) validate(fs *wire.OutgoingFields) string {
	switch code := r.StatusCode(); {
	case code < 200 || code > 599:
		return "status code not in 200..599"
	case fs.Invalid != nil:
		return "invalid field name or value"
	case !validReason(r.reason):
		return "invalid reason phrase"
	}
	return ""
}

// planBuffered decides the head of a buffered response. A 2xx response
// to CONNECT switches the connection to a tunnel (RFC 9110 §9.3.6): it
// carries neither Content-Length nor Transfer-Encoding, and since brisk
// implements no tunnel, its body (if any) is delimited by closing the
// connection and nothing after it is parsed as HTTP.
func (c *conn) planBuffered(r *Response, fs wire.OutgoingFields) headPlan {
	p := headPlan{status: r.StatusCode(), scan: fs, framing: wire.FramingLength, length: int64(len(r.body))}
	req := &c.ctx.Request
	switch {
	case req.head.Form == wire.AuthorityForm && p.status >= 200 && p.status < 300: // CONNECT
		c.keepAlive = false
		p.framing = wire.FramingClose
		if p.status == 204 {
			p.framing = wire.FramingNone
		}
	case p.status < 200 || p.status == 204 || p.status == 304:
		p.framing = wire.FramingNone
	case req.isHead():
		p.omitBody = true
		switch {
		case r.lengthUnknown:
			p.framing = wire.FramingNone
		case len(r.body) == 0 && fs.ContentLength >= 0:
			p.length = fs.ContentLength
		}
	}
	return p
}

// checkedScan validates the response and, when it is invalid, logs why and
// replaces it with a 500.
func (c *conn) checkedScan(r *Response) wire.OutgoingFields {
	fs := scanFields(&r.Header)
	if why := r.validate(&fs); why != "" {
		c.srv.logger.Error("brisk: invalid response replaced by 500", "reason", why,
			"status", r.StatusCode(), "field", string(fs.Invalid))
		r.setError(500)
		fs = scanFields(&r.Header)
	}
	if fs.Close {
		c.keepAlive = false
	}
	return fs
}

// writeBuffered encodes a buffered response: head, then body. A body larger
// than the write buffer's free space is written straight from r.body.
func (c *conn) writeBuffered(r *Response) {
	p := c.planBuffered(r, c.checkedScan(r))
	w := c.headBuf(r)
	w.b = c.appendHead(w.b, r, &p)
	if p.framing == wire.FramingNone || p.omitBody || len(r.body) == 0 {
		return
	}
	c.sendBytes(r.body)
}

// headBuf returns the write buffer with room for the head of r: the
// responses it batches are written first when the head might not fit, so
// that encoding it never grows the pooled buffer.
func (c *conn) headBuf(r *Response) *buffer {
	w := c.writeBuf()
	if len(w.b) > 0 && cap(w.b)-len(w.b) < c.headBound(r) {
		c.flush()
	}
	return w
}

// headBound is the most bytes appendHead appends for r, whatever its
// plan: it counts the longer of each pair of fields the plan chooses
// between (Content-Length or Transfer-Encoding, Connection) and every
// field of r.Header, managed ones included.
func (c *conn) headBound(r *Response) int {
	n := len("HTTP/1.1 200 \r\n") + max(len(r.reason), maxStatusTextLen) +
		len("Server: \r\n") + len(c.srv.Name) + len("Date: \r\n") + dateLen +
		len("Content-Length: \r\n") + maxDecimalLen + len("Connection: keep-alive\r\n") + len("\r\n")
	for i := range r.Header.fields {
		f := &r.Header.fields[i]
		n += len(f.Name) + len(": \r\n") + len(f.Value)
	}
	return n
}

const (
	maxDecimalLen    = 19 // the longest int64 in decimal
	maxStatusTextLen = 31 // the longest wire.StatusText (TestHeadBound)
)

// appendHead appends the status line, the server's fields, the handler's
// fields and the framing fields.
func (c *conn) appendHead(dst []byte, r *Response, p *headPlan) []byte {
	dst = wire.AppendStatusLine(dst, p.status, r.reason)
	if c.srv.Name != "" && !p.scan.Present.Has(wire.FieldServer) {
		dst = wire.AppendField(dst, "Server", c.srv.Name)
	}
	if !p.scan.Present.Has(wire.FieldDate) {
		dst = wire.AppendField(dst, "Date", c.srv.date.get())
	}
	dst = wire.AppendFields(dst, r.Header.fields, managedFields&p.scan.Present)
	switch p.framing {
	case wire.FramingLength:
		dst = wire.AppendContentLength(dst, p.length)
	case wire.FramingChunked:
		dst = append(dst, "Transfer-Encoding: chunked\r\n"...)
	}
	c.closeIfDraining()
	switch {
	case !c.keepAlive:
		dst = append(dst, "Connection: close\r\n"...)
	case c.ctx.Request.head.Minor == 0:
		dst = append(dst, "Connection: keep-alive\r\n"...)
	}
	return append(dst, "\r\n"...)
}

// appendErrorBody appends the plain-text body of an error response: the
// reason phrase and a newline. It never contains client bytes.
func appendErrorBody(dst []byte, code int) []byte {
	if t := wire.StatusText(code); t != "" {
		dst = append(dst, t...)
	} else {
		dst = strconv.AppendInt(dst, int64(code), 10)
	}
	return append(dst, '\n')
}

// validReason reports whether b may be a reason-phrase (RFC 9112 §4): no
// CTL other than HTAB.
func validReason(b []byte) bool { return ascii.Run(b, ascii.FieldVChar) == len(b) }
