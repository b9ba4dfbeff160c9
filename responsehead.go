package brisk

import (
	"strconv"

	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// Encoding of the response head (RFC 9112 §4, §6; RFC 9110 §6.4.1, §8.6).

// bodyFraming is how the server delimits a response body.
type bodyFraming uint8

const (
	bodyNone    bodyFraming = iota // no body, no Content-Length (1xx, 204, 304)
	bodyLength                     // Content-Length: n (body omitted for HEAD)
	bodyChunked                    // Transfer-Encoding: chunked
	bodyClose                      // delimited by closing the connection
)

// fieldScan is what the server learns from the handler's fields.
type fieldScan struct {
	bad           []byte // name of the first invalid field, or nil
	hasDate       bool
	hasServer     bool
	connClose     bool
	contentLength int64 // handler-set Content-Length, -1 when none or invalid
}

// scanFields validates the handler's fields and notes the ones the server
// manages.
func scanFields(h *Header) fieldScan {
	fs := fieldScan{contentLength: -1}
	for i := range h.fields {
		f := &h.fields[i]
		if !validToken(f.Name) || !wire.ValidFieldValue(f.Value) {
			if fs.bad == nil {
				fs.bad = f.Name
			}
			continue
		}
		switch special(f.Name) {
		case fDate:
			fs.hasDate = true
		case fServer:
			fs.hasServer = true
		case fConnection:
			fs.connClose = fs.connClose || hasToken(f.Value, "close")
		case fContentLength:
			fs.contentLength = parseLength(f.Value)
		}
	}
	return fs
}

// Field names the server manages.
const (
	fOther = iota
	fDate
	fServer
	fConnection
	fContentLength
	fTransferEncoding
)

func special(name []byte) int {
	switch len(name) {
	case 4:
		if ascii.EqualFold(name, "Date") {
			return fDate
		}
	case 6:
		if ascii.EqualFold(name, "Server") {
			return fServer
		}
	case 10:
		if ascii.EqualFold(name, "Connection") {
			return fConnection
		}
	case 14:
		if ascii.EqualFold(name, "Content-Length") {
			return fContentLength
		}
	case 17:
		if ascii.EqualFold(name, "Transfer-Encoding") {
			return fTransferEncoding
		}
	}
	return fOther
}

// hasToken reports whether the comma-separated list v contains tok
// (case-insensitive, RFC 9110 §5.6.1).
func hasToken(v []byte, tok string) bool {
	for len(v) > 0 {
		i := 0
		for i < len(v) && v[i] != ',' {
			i++
		}
		if ascii.EqualFold(trimOWS(v[:i]), tok) {
			return true
		}
		if i == len(v) {
			break
		}
		v = v[i+1:]
	}
	return false
}

// parseLength parses a Content-Length value, -1 when invalid.
func parseLength(v []byte) int64 {
	if len(v) == 0 || len(v) > 18 {
		return -1
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// headPlan is the decided shape of a response head.
type headPlan struct {
	status   int
	framing  bodyFraming
	length   int64 // for bodyLength
	scan     fieldScan
	omitBody bool // HEAD: Content-Length but no body bytes
}

// validate checks what the handler set; a non-empty reason is returned
// for the log.
func (r *Response) validate(fs *fieldScan) string {
	switch code := r.StatusCode(); {
	case code < 200 || code > 599:
		return "status code not in 200..599"
	case fs.bad != nil:
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
func (c *conn) planBuffered(r *Response, fs fieldScan) headPlan {
	p := headPlan{status: r.StatusCode(), scan: fs, framing: bodyLength, length: int64(len(r.body))}
	req := &c.ctx.Request
	switch {
	case req.head.Form == wire.AuthorityForm && p.status >= 200 && p.status < 300: // CONNECT
		c.keepAlive = false
		p.framing = bodyClose
		if p.status == 204 {
			p.framing = bodyNone
		}
	case p.status < 200 || p.status == 204 || p.status == 304:
		p.framing = bodyNone
	case req.isHead():
		p.omitBody = true
		if len(r.body) == 0 && fs.contentLength >= 0 {
			p.length = fs.contentLength
		}
	}
	return p
}

// checkedScan validates the response and, when it is invalid, logs why and
// replaces it with a 500.
func (c *conn) checkedScan(r *Response) fieldScan {
	fs := scanFields(&r.Header)
	if why := r.validate(&fs); why != "" {
		c.srv.logger.Error("brisk: invalid response replaced by 500", "reason", why,
			"status", r.StatusCode(), "field", string(fs.bad))
		r.setError(500)
		fs = scanFields(&r.Header)
	}
	if fs.connClose {
		c.keepAlive = false
	}
	return fs
}

// minHeadRoom is the free write-buffer space below which pending responses
// are flushed before a new head is encoded.
const minHeadRoom = 1024

// writeBuffered encodes a buffered response: head, then body. A body larger
// than the write buffer's free space is written straight from r.body.
func (c *conn) writeBuffered(r *Response) {
	p := c.planBuffered(r, c.checkedScan(r))
	w := c.writeBuf()
	if cap(w.b)-len(w.b) < minHeadRoom {
		c.flush() // batched pipelined responses: keep the buffer from growing
	}
	w.b = c.appendHead(w.b, r, &p)
	if p.framing == bodyNone || p.omitBody || len(r.body) == 0 {
		return
	}
	c.sendBytes(r.body)
}

// appendHead appends the status line, the server's fields, the handler's
// fields and the framing fields.
func (c *conn) appendHead(dst []byte, r *Response, p *headPlan) []byte {
	dst = wire.AppendStatusLine(dst, p.status, r.reason)
	if c.srv.Name != "" && !p.scan.hasServer {
		dst = wire.AppendField(dst, "Server", c.srv.Name)
	}
	if !p.scan.hasDate {
		dst = wire.AppendField(dst, "Date", c.srv.date.get())
	}
	for i := range r.Header.fields {
		f := &r.Header.fields[i]
		if special(f.Name) < fConnection {
			dst = wire.AppendField(dst, f.Name, f.Value)
		}
	}
	switch p.framing {
	case bodyLength:
		dst = wire.AppendContentLength(dst, p.length)
	case bodyChunked:
		dst = append(dst, "Transfer-Encoding: chunked\r\n"...)
	}
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
