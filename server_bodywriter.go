package brisk

import (
	"errors"

	"github.com/brisk-http/brisk/wire"
)

// BodyWriter streams a response body (see Ctx.BodyWriter). Writes go
// through the connection's write buffer; Flush sends what is buffered. It
// is valid until the handler returns.
type BodyWriter struct {
	c         *conn
	started   bool
	plan      headPlan
	remaining int64 // FramingLength: bytes still expected
	err       error
	headAt    int        // offset of the response head in the write buffer
	writes    int        // the conn's writes when the head was buffered
	filter    BodyFilter // see SetFilter
	filtering bool       // the body goes through filter
	sent      int64      // see Sent
}

// errAborted is the sticky error of a BodyWriter whose handler panicked.
var errAborted = errors.New("brisk: response aborted by a handler panic")

func (w *BodyWriter) reset() {
	w.started, w.err, w.remaining, w.sent = false, nil, 0, 0
	w.filter, w.filtering = nil, false
}

// Sent returns the number of body bytes that Write, WriteString and
// ReadFrom have handed to the connection for this response without an
// error (counted before any BodyFilter transforms them). After an error it
// is a lower bound of what the client received.
func (w *BodyWriter) Sent() int64 { return w.sent }

// Err returns the error that ended the body early (a write error or
// timeout, more bytes than the declared Content-Length, a handler panic),
// or nil. A response with an error is closed without being completed, so
// the client sees it cut short.
func (w *BodyWriter) Err() error { return w.err }

// count adds n to Sent when err is nil and returns its arguments.
func (w *BodyWriter) count(n int, err error) (int, error) {
	if err == nil {
		w.sent += int64(n)
	}
	return n, err
}

// unsend takes back a started response none of whose bytes has been
// written to the connection, and reports whether it could.
func (w *BodyWriter) unsend() bool {
	c := w.c
	if c.writes != w.writes || c.wbuf == nil {
		return false
	}
	c.wbuf.b = c.wbuf.b[:w.headAt]
	w.reset()
	return true
}

// abort makes the response end cut short: finish writes no last-chunk
// and the connection closes (see server_panic.go).
func (w *BodyWriter) abort() { w.err = errAborted }

// aborted reports whether abort was called.
func (w *BodyWriter) aborted() bool { return w.err == errAborted }

// Write sends p as part of the body, starting the response first if
// needed. For a response without a body (HEAD, 204, 304) p is discarded.
func (w *BodyWriter) Write(p []byte) (int, error) { return w.count(writeBody(w, p)) }

// WriteString is Write for a string.
func (w *BodyWriter) WriteString(s string) (int, error) { return w.count(writeBody(w, s)) }

// Flush sends the response head (if not sent yet) and everything buffered.
func (w *BodyWriter) Flush() error {
	if !w.started {
		w.begin()
	}
	if w.err != nil {
		return w.err
	}
	if w.filtering {
		w.flushFilter()
	}
	w.err = w.c.flush()
	return w.err
}

// begin buffers the response head, then the body buffered so far.
func (w *BodyWriter) begin() {
	w.started = true
	c := w.c
	r := &c.ctx.Response
	w.filtering = w.filter != nil && w.filter.Begin(&c.ctx)
	fs := c.checkedScan(r)
	w.plan = c.planBuffered(r, fs)
	if w.plan.omitBody { // HEAD: the length is unknown unless declared
		w.plan.length = fs.ContentLength
		if fs.ContentLength < 0 {
			w.plan.framing = wire.FramingNone
		}
	}
	if w.plan.framing == wire.FramingLength && !w.plan.omitBody {
		w.plan.length = fs.ContentLength
		switch {
		case fs.ContentLength >= 0:
		case c.ctx.Request.head.Minor >= 1:
			w.plan.framing = wire.FramingChunked
		default:
			w.plan.framing = wire.FramingClose
			c.keepAlive = false
		}
	}
	w.remaining = w.plan.length
	b := c.headBuf(r)
	w.headAt, w.writes = len(b.b), c.writes
	b.b = c.appendHead(b.b, r, &w.plan)
	body := r.body
	r.body = r.body[:0]
	if len(body) > 0 {
		writeBody(w, body)
	}
}

func writeBody[B wire.Bytes](w *BodyWriter, p B) (int, error) {
	if !w.started {
		w.begin()
	}
	if w.filtering {
		return writeFiltered(w, p)
	}
	if w.err != nil {
		return 0, w.err
	}
	if len(p) == 0 || w.plan.framing == wire.FramingNone || w.plan.omitBody {
		return len(p), nil
	}
	c := w.c
	switch w.plan.framing {
	case wire.FramingChunked:
		b := c.writeBuf()
		b.b = wire.AppendChunkSize(b.b, len(p))
		sendBody(c, p)
		c.wbuf.b = append(c.wbuf.b, "\r\n"...)
	case wire.FramingLength:
		if int64(len(p)) > w.remaining {
			w.err = ErrBodyLength
			c.keepAlive = false
			return 0, w.err
		}
		w.remaining -= int64(len(p))
		sendBody(c, p)
	default:
		sendBody(c, p)
	}
	if w.err == nil {
		w.err = c.werr
	}
	return len(p), w.err
}

// sendBody appends p to the write buffer, flushing whenever it is full; a
// []byte that does not fit goes out from its own storage (sendBytes).
func sendBody[B wire.Bytes](c *conn, p B) {
	if bs, ok := any(p).([]byte); ok {
		c.sendBytes(bs)
		return
	}
	b := c.writeBuf()
	for len(p) > 0 && c.werr == nil {
		free := cap(b.b) - len(b.b)
		if free == 0 {
			c.flush()
			continue
		}
		n := min(free, len(p))
		b.b = append(b.b, p[:n]...)
		p = p[n:]
	}
}

// finish ends the body after the handler returned: the last chunk and the
// trailer section for chunked, and the keep-alive decision otherwise. A
// body that failed (a write error, more bytes than its Content-Length, a
// handler panic) or is shorter than its Content-Length is not completed:
// the connection closes without a last-chunk or padding, so the response
// looks cut short (RFC 9112 §8).
func (w *BodyWriter) finish() {
	c := w.c
	switch {
	case w.err != nil || c.werr != nil:
		c.keepAlive = false
	case w.plan.framing == wire.FramingChunked:
		b := c.writeBuf()
		b.b = wire.AppendLastChunk(b.b, c.validTrailers())
	case w.plan.framing == wire.FramingLength && !w.plan.omitBody && w.remaining > 0:
		c.srv.logger.Error("brisk: response body shorter than its Content-Length; closing",
			"missing", w.remaining)
		c.keepAlive = false
	case w.plan.framing == wire.FramingClose:
		c.keepAlive = false
	}
}

// validTrailers returns the handler's trailer fields less the forbidden
// ones (trailer_fields.go), or none (logged) if one of them is invalid.
func (c *conn) validTrailers() []wire.Field {
	t := &c.ctx.Response.Trailer
	if len(t.fields) == 0 {
		return nil
	}
	if fs := scanFields(t); fs.Invalid != nil {
		c.srv.logger.Error("brisk: invalid trailer field dropped all trailers", "field", string(fs.Invalid))
		return nil
	}
	t.fields = dropForbiddenTrailers(t.fields)
	return t.fields
}
