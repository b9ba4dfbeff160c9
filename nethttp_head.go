package brisk

// The response head of FromHTTP's ResponseWriter, decided and encoded as
// net/http's chunkWriter.writeHeader does.

import (
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"slices"
	"strconv"
	"strings"

	"github.com/brisk-http/brisk/wire"
	"golang.org/x/net/http/httpguts"
)

// takeSnapshot records the handler's header, sorted by key.
func (w *httpResponse) takeSnapshot() {
	clear(w.snap)
	w.snap = w.snap[:0]
	for k, vv := range w.header {
		w.snap = append(w.snap, headerKV{key: k, values: vv})
	}
	slices.SortFunc(w.snap, func(a, b headerKV) int { return strings.Compare(a.key, b.key) })
}

func (w *httpResponse) find(key string) *headerKV {
	i, ok := slices.BinarySearchFunc(w.snap, key, func(kv headerKV, k string) int { return strings.Compare(kv.key, k) })
	if !ok || w.snap[i].excluded {
		return nil
	}
	return &w.snap[i]
}

// get returns the first value of key in the snapshot, "" when none.
func (w *httpResponse) get(key string) string {
	if kv := w.find(key); kv != nil && len(kv.values) > 0 {
		return kv.values[0]
	}
	return ""
}

func (w *httpResponse) has(key string) bool { return w.find(key) != nil }

func (w *httpResponse) del(key string) {
	if kv := w.find(key); kv != nil {
		kv.excluded = true
	}
}

// extraFields are the fields net/http adds after the handler's, in its
// order.
type extraFields struct {
	contentLength                           int64 // -1: none
	contentType, connection, transferCoding string
}

// headState is what sendHead decides, step by step.
type headState struct {
	extra           extraFields
	te              string // the handler's Transfer-Encoding, "" when none
	hasCL           bool   // a Content-Length is sent
	closeAfter      bool   // close the connection after the response
	serverKeepAlive bool   // the server allows another request
}

// sendHead decides and buffers the response head, as net/http's
// chunkWriter.writeHeader does; p is the first body bytes (all of them
// when the handler has returned). Then body bytes go to the Ctx's
// BodyWriter with the framing decided here.
func (w *httpResponse) sendHead(p []byte) {
	w.headSent = true
	c := w.x.c
	st := headState{
		extra:           extraFields{contentLength: -1},
		te:              w.get("Transfer-Encoding"),
		serverKeepAlive: !c.srv.Draining() && (c.lim.maxRequestsPerConn == 0 || c.nreq < c.lim.maxRequestsPerConn),
	}
	w.autoLength(&st, p, w.markTrailers())
	w.decidePersistence(&st)
	w.contentFields(&st, p)
	framing := w.decideFraming(&st)
	w.closeField(&st)
	if st.closeAfter {
		c.keepAlive = false
	}
	c.body.expect = false
	b := c.writeBuf()
	b.b = w.appendHead(b.b, w.status, &st.extra)
	bw := &w.x.bw
	bw.started = true
	bw.plan = headPlan{status: w.status, framing: framing, length: w.contentLength}
	w.x.Response.status = w.status // the status sent, for Server.OnRequestDone
	bw.remaining = w.contentLength
}

// markTrailers excludes the http.TrailerPrefix keys from the head, notes
// the keys the Trailer field declares, and reports whether there are
// trailers.
func (w *httpResponse) markTrailers() bool {
	has := false
	for i := range w.snap {
		if strings.HasPrefix(w.snap[i].key, http.TrailerPrefix) {
			w.snap[i].excluded = true
			has = true
		}
	}
	if kv := w.find("Trailer"); kv != nil {
		has = true
		for _, v := range kv.values {
			w.declareTrailers(v)
		}
	}
	return has
}

// autoLength sets Content-Length to the whole body when the handler
// returned with it all in the buffer and nothing rules it out.
func (w *httpResponse) autoLength(st *headState, p []byte, hasTrailers bool) {
	if w.handlerDone && !hasTrailers && st.te == "" && bodyAllowedForStatus(w.status) &&
		!w.has("Content-Length") && (w.req.Method != "HEAD" || len(p) > 0) {
		w.contentLength = int64(len(p))
		st.extra.contentLength = w.contentLength
	}
	st.hasCL = w.contentLength != -1
}

// decidePersistence makes net/http's keep-alive decision: HTTP/1.0
// keep-alive, the request's and handler's "close", an http.MaxBytesReader
// past its limit, a body the client was not asked for, and an unread body
// discarded up to maxPostHandlerReadBytes.
func (w *httpResponse) decidePersistence(st *headState) {
	r, h, c := w.req, &w.x.Request.head, w.x.c
	wants10KeepAlive := r.ProtoMinor == 0 && h.ConnectionKeepAlive
	if wants10KeepAlive && (r.Method == "HEAD" || st.hasCL || !bodyAllowedForStatus(w.status)) {
		if !w.has("Connection") {
			st.extra.connection = "keep-alive"
		}
	} else if r.ProtoMinor == 0 || h.ConnectionClose {
		st.closeAfter = true
	}
	if w.get("Connection") == "close" || !st.serverKeepAlive || w.limitHit() {
		st.closeAfter = true
	}
	expects := h.Expect100 && r.ProtoMinor >= 1 && r.ContentLength != 0
	if expects && !c.body.complete() {
		st.closeAfter = true
	}
	if r.ContentLength == 0 || st.closeAfter || w.fullDuplex || expects {
		return
	}
	switch tooBig, ok := w.discardBody(); {
	case !ok:
		st.closeAfter = true
	case tooBig:
		st.closeAfter = true
		w.del("Connection")
		st.extra.connection = "close"
	}
}

// contentFields sniffs a Content-Type when none is set, or drops the
// content fields of a status without content.
func (w *httpResponse) contentFields(st *headState, p []byte) {
	if !bodyAllowedForStatus(w.status) {
		if w.status == 304 {
			w.del("Content-Type")
		}
		w.del("Content-Length")
		w.del("Transfer-Encoding")
		return
	}
	if !w.has("Content-Type") && w.get("Content-Encoding") == "" && st.te == "" && len(p) > 0 {
		st.extra.contentType = http.DetectContentType(p)
	}
}

// decideFraming chooses how the body is delimited: none, Content-Length,
// chunked (HTTP/1.1) or the close.
func (w *httpResponse) decideFraming(st *headState) wire.Framing {
	if st.hasCL && st.te != "" && st.te != "identity" {
		w.x.Logger().Warn("brisk: both Transfer-Encoding and Content-Length set; Content-Length dropped", "te", st.te)
		w.del("Content-Length")
		st.hasCL = false
	}
	framing := wire.FramingClose
	switch {
	case w.req.Method == "HEAD" || !bodyAllowedForStatus(w.status) || w.status == 204:
		w.del("Transfer-Encoding")
		framing = wire.FramingNone
	case st.hasCL:
		w.del("Transfer-Encoding")
		framing = wire.FramingLength
	case w.req.ProtoMinor >= 1 && st.te == "identity":
		st.closeAfter = true
		w.del("Transfer-Encoding")
	case w.req.ProtoMinor >= 1:
		w.chunking = true
		framing = wire.FramingChunked
		st.extra.transferCoding = "chunked"
		if st.te == "chunked" {
			w.del("Transfer-Encoding")
		}
		w.del("Content-Length")
	default:
		st.closeAfter = true
		w.del("Transfer-Encoding")
	}
	return framing
}

// closeField replaces the handler's Connection field by "close" when the
// connection closes, except on a protocol switch.
func (w *httpResponse) closeField(st *headState) {
	switches := w.status == 101 && w.get("Upgrade") != "" && w.connectionHasUpgrade()
	if st.closeAfter && (!st.serverKeepAlive || !wire.HasToken([]byte(w.get("Connection")), "close")) && !switches {
		w.del("Connection")
		if w.req.ProtoMinor >= 1 {
			st.extra.connection = "close"
		}
	}
}

// appendHead appends the status line, the Server field when configured,
// the handler's fields sorted by key, Date and the extra fields.
func (w *httpResponse) appendHead(dst []byte, code int, extra *extraFields) []byte {
	c := w.x.c
	dst = appendHTTPStatusLine(dst, w.req.ProtoMinor, code)
	if c.srv.Name != "" && !w.has("Server") {
		dst = wire.AppendField(dst, "Server", c.srv.Name)
	}
	dst = appendHTTPFields(dst, w.snap)
	if !w.has("Date") {
		dst = wire.AppendField(dst, "Date", c.srv.date.get())
	}
	if extra.contentLength >= 0 {
		dst = wire.AppendContentLength(dst, extra.contentLength)
	}
	if extra.contentType != "" {
		dst = wire.AppendField(dst, "Content-Type", extra.contentType)
	}
	if extra.connection != "" {
		dst = wire.AppendField(dst, "Connection", extra.connection)
	}
	if extra.transferCoding != "" {
		dst = wire.AppendField(dst, "Transfer-Encoding", extra.transferCoding)
	}
	return append(dst, "\r\n"...)
}

// connectionHasUpgrade reports an "upgrade" option in the Connection
// fields of the snapshot.
func (w *httpResponse) connectionHasUpgrade() bool {
	if kv := w.find("Connection"); kv != nil {
		for _, v := range kv.values {
			if wire.HasToken([]byte(v), "upgrade") {
				return true
			}
		}
	}
	return false
}

// declareTrailers notes the keys listed in a Trailer field value but
// those net/http refuses to send as trailers (httpguts.ValidTrailerHeader:
// the framing, routing, authentication, request-modifier and content
// fields of RFC 9110 §6.5.1, and every "If-" precondition).
func (w *httpResponse) declareTrailers(v string) {
	for k := range strings.SplitSeq(v, ",") {
		k = textproto.CanonicalMIMEHeaderKey(textproto.TrimString(k))
		if k != "" && httpguts.ValidTrailerHeader(k) {
			w.trailers = append(w.trailers, k)
		}
	}
}

// discardBody reads and discards an unread request body of up to
// maxPostHandlerReadBytes before the head is sent, as net/http does (a
// client may not read the response before it has sent its request), and
// closes the body once read to its end: later reads fail with
// http.ErrBodyReadAfterClose, as on net/http. ok is false when the body
// cannot be read to its end (closed with a rest unread, or a read
// error); tooBig when more remains (a Content-Length rest that large is
// not read).
func (w *httpResponse) discardBody() (tooBig, ok bool) {
	b := &w.e.body
	dec := &w.x.c.body.dec
	switch {
	case b.closed:
		return false, b.sawEOF
	case dec.Framing() == wire.FramingLength && dec.Remaining() >= maxPostHandlerReadBytes:
		return true, true
	}
	_, err := io.CopyN(io.Discard, bodyRest{b}, maxPostHandlerReadBytes+1)
	switch err {
	case nil:
		return true, true
	case io.EOF:
		b.closed = true
		return false, true
	}
	return false, false
}

// appendHTTPStatusLine appends net/http's status line: the request's
// protocol version, the code and its text or "status code N".
func appendHTTPStatusLine(dst []byte, minor, code int) []byte {
	if minor >= 1 {
		dst = append(dst, "HTTP/1.1 "...)
	} else {
		dst = append(dst, "HTTP/1.0 "...)
	}
	if text := http.StatusText(code); text != "" {
		dst = strconv.AppendInt(dst, int64(code), 10)
		dst = append(dst, ' ')
		dst = append(dst, text...)
	} else {
		dst = fmt.Appendf(dst, "%03d status code %d", code, code)
	}
	return append(dst, "\r\n"...)
}

// appendHTTPFields appends the fields of a sorted snapshot as net/http's
// Header.WriteSubset does: invalid names skipped, CR and LF in values
// turned into spaces, values trimmed.
func appendHTTPFields(dst []byte, kvs []headerKV) []byte {
	for i := range kvs {
		kv := &kvs[i]
		if kv.excluded || !validToken(kv.key) {
			continue
		}
		for _, v := range kv.values {
			dst = append(dst, kv.key...)
			dst = append(dst, ": "...)
			dst = append(dst, sanitizeFieldValue(v)...)
			dst = append(dst, "\r\n"...)
		}
	}
	return dst
}

// sanitizeFieldValue is net/http's treatment of a field value: CR and LF
// become spaces, surrounding whitespace is trimmed.
func sanitizeFieldValue(v string) string {
	if strings.ContainsAny(v, "\r\n") {
		v = strings.Map(func(r rune) rune {
			if r == '\r' || r == '\n' {
				return ' '
			}
			return r
		}, v)
	}
	return textproto.TrimString(v)
}

// bodyAllowedForStatus reports whether a status code permits content
// (RFC 9110 §6.4.1).
func bodyAllowedForStatus(code int) bool {
	return !(code >= 100 && code <= 199 || code == 204 || code == 304)
}
