package brisk

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Sizes net/http's server uses, kept so that responses are framed alike.
const (
	bufferBeforeChunking    = 2048      // net/http's bufferBeforeChunkingSize
	maxPostHandlerReadBytes = 256 << 10 // unread body discarded before the head
)

// errAfterHandler is returned by a ResponseWriter used after its
// handler returned (net/http forbids it; brisk fails instead of crashing).
var errAfterHandler = errors.New("brisk: ResponseWriter used after the handler returned")

// httpResponse is the http.ResponseWriter of FromHTTP. Like net/http's,
// body writes go through a 2048-byte buffer (bw) to chunkWriter, whose
// first write sends the head: the head is decided from the fields as of
// WriteHeader, whether the handler has returned, and the first bytes.
type httpResponse struct {
	e   *httpExchange
	x   *Ctx // nil between requests
	req *http.Request
	bw  *bufio.Writer

	header   http.Header // the handler's, live
	snap     []headerKV  // header as of WriteHeader, sorted by key
	trailers []string    // keys declared in the Trailer field

	status        int
	contentLength int64 // from the handler's Content-Length, -1 when none
	written       int64
	wroteHeader   bool // final status set
	headSent      bool
	handlerDone   bool
	chunking      bool
	hijacked      bool
	fullDuplex    bool
	writeDeadline bool // the handler set one; cleared after it returns
	bodyLimitHit  bool // an http.MaxBytesReader Body reached its limit
}

// headerKV is one key of a header snapshot.
type headerKV struct {
	key      string
	values   []string
	excluded bool
}

func (w *httpResponse) reset(x *Ctx, r *http.Request) {
	if w.header == nil {
		w.header = make(http.Header)
	}
	w.x, w.req = x, r
	for name, value := range x.Response.Header.All() { // set by middleware around FromHTTP
		w.header.Add(string(name), string(value))
	}
	w.status, w.contentLength, w.written = 0, -1, 0
	w.wroteHeader, w.headSent, w.handlerDone, w.chunking = false, false, false, false
	w.hijacked, w.fullDuplex, w.writeDeadline, w.bodyLimitHit = false, false, false, false
	w.bw.Reset(chunkWriter{w})
}

// endExchange clears what the request left, after the handler returned.
func (w *httpResponse) endExchange() {
	w.x.c.endHandlerWriteDeadline()
	clear(w.header)
	clear(w.snap)
	w.snap = w.snap[:0]
	w.trailers = w.trailers[:0]
	w.x, w.req = nil, nil
	w.bw.Reset(chunkWriter{w})
}

// Header returns the response header map. Changes after WriteHeader (or
// the first Write) are not sent, except trailers.
func (w *httpResponse) Header() http.Header { return w.header }

// WriteHeader sends a 1xx response at once (with the current fields but
// Content-Length and Transfer-Encoding; nothing to an HTTP/1.0 request),
// or sets the final status code.
// It panics on a code outside 100..999, as net/http does.
func (w *httpResponse) WriteHeader(code int) {
	if w.x == nil {
		return
	}
	if w.hijacked || w.wroteHeader {
		w.x.Logger().Warn("brisk: superfluous or hijacked WriteHeader call ignored", "code", code)
		return
	}
	if code < 100 || code > 999 {
		panic(fmt.Sprintf("invalid WriteHeader code %v", code))
	}
	c := w.x.c
	if code == 100 || code > 199 {
		c.body.expect = false // sent by the handler, or too late
	}
	if code >= 100 && code <= 199 && code != 101 {
		if w.req.ProtoMinor == 0 {
			return // no 1xx to HTTP/1.0 (RFC 9110 §15.2), unlike net/http
		}
		w.takeSnapshot()
		w.del("Content-Length")
		w.del("Transfer-Encoding")
		b := c.writeBuf()
		b.b = appendHTTPStatusLine(b.b, w.req.ProtoMinor, code)
		b.b = appendHTTPFields(b.b, w.snap)
		b.b = append(b.b, "\r\n"...)
		c.flush()
		return
	}
	if w.limitHit() {
		w.header.Set("Connection", "close") // as net/http's requestTooLarge does
	}
	w.wroteHeader = true
	w.status = code
	w.takeSnapshot()
	if cl := w.get("Content-Length"); cl != "" {
		if v, err := strconv.ParseInt(cl, 10, 64); err == nil && v >= 0 {
			w.contentLength = v
		} else {
			w.x.Logger().Warn("brisk: invalid Content-Length dropped", "value", cl)
			w.del("Content-Length")
			delete(w.header, "Content-Length")
		}
	}
}

// Write writes body bytes, setting status 200 first if none was set. It
// fails with http.ErrBodyNotAllowed for a 1xx, 204 or 304 status,
// http.ErrContentLength past a declared Content-Length, and
// http.ErrHijacked after Hijack.
func (w *httpResponse) Write(p []byte) (int, error) { return w.write(len(p), p, "") }

// WriteString is Write for a string.
func (w *httpResponse) WriteString(s string) (int, error) { return w.write(len(s), nil, s) }

func (w *httpResponse) write(n int, p []byte, s string) (int, error) {
	switch {
	case w.x == nil:
		return 0, errAfterHandler
	case w.hijacked:
		return 0, http.ErrHijacked
	}
	if !w.wroteHeader {
		w.WriteHeader(200)
	}
	if n == 0 {
		return 0, nil
	}
	if !bodyAllowedForStatus(w.status) {
		return 0, http.ErrBodyNotAllowed
	}
	w.written += int64(n)
	if w.contentLength != -1 && w.written > w.contentLength {
		return 0, http.ErrContentLength
	}
	if p != nil {
		return w.bw.Write(p)
	}
	return w.bw.WriteString(s)
}

// Flush sends the head, if not sent, and everything buffered (http.Flusher).
func (w *httpResponse) Flush() { w.FlushError() }

// FlushError is Flush returning the write error (for
// http.ResponseController).
func (w *httpResponse) FlushError() error {
	switch {
	case w.x == nil:
		return errAfterHandler
	case w.hijacked:
		return http.ErrHijacked
	}
	if !w.wroteHeader {
		w.WriteHeader(200)
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	if !w.headSent {
		w.sendHead(nil)
	}
	return w.x.c.flush()
}

// Hijack takes the connection over (http.Hijacker; see Ctx.Hijack): the
// reader holds the bytes already received past the request head; the
// head, if WriteHeader was called, is sent first, buffered body bytes
// are not.
func (w *httpResponse) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if w.hijacked {
		return nil, nil, http.ErrHijacked
	}
	if w.wroteHeader && !w.headSent {
		w.sendHead(nil)
	}
	nc, buffered, err := w.x.Hijack()
	if err != nil {
		return nil, nil, err
	}
	w.hijacked = true
	br := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(buffered), nc), max(4096, len(buffered)))
	if len(buffered) > 0 {
		br.Peek(len(buffered)) // Buffered() reports them, as net/http's does
	}
	return nc, bufio.NewReadWriter(br, bufio.NewWriter(nc)), nil
}

// SetReadDeadline sets the deadline of the request body's reads (for
// http.ResponseController) until the next request, in place of
// Server.ReadTimeout, as net/http's replaces its ReadTimeout: a read
// waiting past it fails with a timeout (os.ErrDeadlineExceeded). The
// zero time means none; Server.MinRequestBodyRate still applies.
func (w *httpResponse) SetReadDeadline(t time.Time) error {
	switch {
	case w.x == nil:
		return errAfterHandler
	case w.hijacked:
		return http.ErrHijacked
	}
	w.x.c.body.setDeadline(deadlineNanos(t))
	return nil
}

// SetWriteDeadline sets the deadline of the response's writes to the
// connection (for http.ResponseController) until the handler returns
// and the response is sent, in place of Server.WriteTimeout, as
// net/http's replaces its WriteTimeout: a write past it fails with a
// timeout (os.ErrDeadlineExceeded), as do the later ones, and the
// connection closes. The zero time means none; Server.MinResponseRate
// still applies.
func (w *httpResponse) SetWriteDeadline(t time.Time) error {
	switch {
	case w.x == nil:
		return errAfterHandler
	case w.hijacked:
		return http.ErrHijacked
	}
	w.x.c.setHandlerWriteDeadline(deadlineNanos(t))
	w.writeDeadline = true
	return nil
}

// EnableFullDuplex lets the handler read the body after writing the
// response (for http.ResponseController): the unread body is then not
// discarded before the head is sent.
func (w *httpResponse) EnableFullDuplex() error {
	w.fullDuplex = true
	return nil
}

func deadlineNanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// finish ends the response after the handler returned, as net/http's
// finishRequest: flush the buffer (sending the head with a Content-Length
// when the whole body is in it), then the trailers.
func (w *httpResponse) finish() {
	if w.hijacked {
		return
	}
	w.handlerDone = true
	if !w.wroteHeader {
		w.WriteHeader(200)
	}
	w.bw.Flush()
	if !w.headSent {
		w.sendHead(nil)
	}
	if w.writeDeadline {
		w.x.c.flush() // under the handler's deadline, as net/http's finishRequest
	}
	if w.chunking {
		w.setTrailers()
	}
	if w.req.Method != "HEAD" && w.contentLength != -1 && bodyAllowedForStatus(w.status) && w.contentLength != w.written ||
		w.e.body.earlyClose || w.limitHit() {
		w.x.c.keepAlive = false
	}
}

// setTrailers copies the final trailers (declared keys and
// http.TrailerPrefix ones), sorted as net/http writes them, to the
// Response.Trailer brisk sends after the last chunk.
func (w *httpResponse) setTrailers() {
	t := w.snap[:0]
	for k, vv := range w.header {
		if kk, ok := strings.CutPrefix(k, http.TrailerPrefix); ok {
			t = append(t, headerKV{key: kk, values: vv})
		}
	}
	for _, k := range w.trailers {
		if vv := w.header[k]; len(vv) > 0 {
			t = append(t, headerKV{key: k, values: vv})
		}
	}
	slices.SortStableFunc(t, func(a, b headerKV) int { return strings.Compare(a.key, b.key) })
	for _, kv := range t {
		if !validToken(kv.key) {
			continue
		}
		for _, v := range kv.values {
			w.x.Response.Trailer.Add(kv.key, sanitizeFieldValue(v))
		}
	}
	w.snap = t
}

// chunkWriter receives the buffered body from httpResponse.bw: its first
// write sends the head, then bytes go to brisk's BodyWriter, one chunk
// per write when chunked, as net/http's chunkWriter does.
type chunkWriter struct{ w *httpResponse }

func (cw chunkWriter) Write(p []byte) (int, error) {
	w := cw.w
	if !w.headSent {
		w.sendHead(p)
	}
	if w.req.Method == "HEAD" {
		return len(p), nil
	}
	return w.x.bw.Write(p)
}

// limitHit reports whether the handler's Request.Body is an
// http.MaxBytesReader that reached its limit, from the time it did on.
// net/http's MaxBytesReader then tells its own ResponseWriter, through a
// method no other package can implement, to close the connection after
// the response; FromHTTP looks at the reader instead, so a
// MaxBytesReader that is not the request's Body is not seen.
func (w *httpResponse) limitHit() bool {
	if !w.bodyLimitHit {
		w.bodyLimitHit = maxBytesReached(w.req.Body)
	}
	return w.bodyLimitHit
}

// maxBytesReaderType is the dynamic type of http.MaxBytesReader's result.
var maxBytesReaderType = reflect.TypeOf(http.MaxBytesReader(nil, http.NoBody, 0))

// maxBytesReached reports whether body is an http.MaxBytesReader that
// reached its limit: a read of no bytes returns its sticky error, an
// *http.MaxBytesError, and reads nothing.
func maxBytesReached(body io.ReadCloser) bool {
	if body == nil || reflect.TypeOf(body) != maxBytesReaderType {
		return false
	}
	_, err := body.Read(nil)
	_, ok := err.(*http.MaxBytesError)
	return ok
}
