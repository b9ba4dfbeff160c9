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

// sendHead decides and buffers the response head, as net/http's
// chunkWriter.writeHeader does; p is the first body bytes (all of them
// when the handler has returned).
func (w *httpResponse) sendHead(p []byte) {
	w.headSent = true
	x := w.x
	c := x.c
	r := w.req
	isHEAD := r.Method == "HEAD"
	serverKeepAlive := !c.srv.closing.Load() &&
		(c.lim.maxRequestsPerConn == 0 || c.nreq < c.lim.maxRequestsPerConn)
	extra := extraFields{contentLength: -1}
	closeAfter := false

	hasTrailers := false
	for i := range w.snap {
		if strings.HasPrefix(w.snap[i].key, http.TrailerPrefix) {
			w.snap[i].excluded = true
			hasTrailers = true
		}
	}
	if kv := w.find("Trailer"); kv != nil {
		hasTrailers = true
		for _, v := range kv.values {
			w.declareTrailers(v)
		}
	}
	te := w.get("Transfer-Encoding")
	hasTE := te != ""
	code := w.status
	if w.handlerDone && !hasTrailers && !hasTE && bodyAllowedForStatus(code) && !w.has("Content-Length") && (!isHEAD || len(p) > 0) {
		w.contentLength = int64(len(p))
		extra.contentLength = w.contentLength
	}
	wants10KeepAlive := r.ProtoMinor == 0 && x.Request.head.ConnectionKeepAlive
	hasCL := w.contentLength != -1
	if wants10KeepAlive && (isHEAD || hasCL || !bodyAllowedForStatus(code)) {
		if !w.has("Connection") {
			extra.connection = "keep-alive"
		}
	} else if r.ProtoMinor == 0 || x.Request.head.ConnectionClose {
		closeAfter = true
	}
	if w.get("Connection") == "close" || !serverKeepAlive {
		closeAfter = true
	}
	ecr := x.Request.head.Expect100 && r.ProtoMinor >= 1 && r.ContentLength != 0
	if ecr && !c.body.complete() {
		closeAfter = true
	}
	if r.ContentLength != 0 && !closeAfter && !w.fullDuplex && !ecr {
		switch tooBig, ok := w.discardBody(); {
		case !ok:
			closeAfter = true
		case tooBig:
			closeAfter = true
			w.del("Connection")
			extra.connection = "close"
		}
	}
	if bodyAllowedForStatus(code) {
		if !w.has("Content-Type") && w.get("Content-Encoding") == "" && !hasTE && len(p) > 0 {
			extra.contentType = http.DetectContentType(p)
		}
	} else {
		if code == 304 {
			w.del("Content-Type")
		}
		w.del("Content-Length")
		w.del("Transfer-Encoding")
	}
	if hasCL && hasTE && te != "identity" {
		x.Logger().Warn("brisk: both Transfer-Encoding and Content-Length set; Content-Length dropped", "te", te)
		w.del("Content-Length")
		hasCL = false
	}
	framing := bodyClose
	switch {
	case isHEAD || !bodyAllowedForStatus(code) || code == 204:
		w.del("Transfer-Encoding")
		framing = bodyNone
	case hasCL:
		w.del("Transfer-Encoding")
		framing = bodyLength
	case r.ProtoMinor >= 1 && hasTE && te == "identity":
		closeAfter = true
		w.del("Transfer-Encoding")
	case r.ProtoMinor >= 1:
		w.chunking = true
		framing = bodyChunked
		extra.transferCoding = "chunked"
		if hasTE && te == "chunked" {
			w.del("Transfer-Encoding")
		}
	default:
		closeAfter = true
		w.del("Transfer-Encoding")
	}
	if w.chunking {
		w.del("Content-Length")
	}
	switchesProtocol := code == 101 && w.get("Upgrade") != "" && w.connectionHasUpgrade()
	if closeAfter && (!serverKeepAlive || !hasToken([]byte(w.get("Connection")), "close")) && !switchesProtocol {
		w.del("Connection")
		if r.ProtoMinor >= 1 {
			extra.connection = "close"
		}
	}
	if closeAfter {
		c.keepAlive = false
	}
	c.body.expect = false
	b := c.writeBuf()
	b.b = w.appendHead(b.b, code, &extra)
	bw := &x.bw
	bw.started = true
	bw.plan = headPlan{status: code, framing: framing, length: w.contentLength}
	bw.remaining = w.contentLength
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
			if hasToken([]byte(v), "upgrade") {
				return true
			}
		}
	}
	return false
}

// declareTrailers notes the keys listed in a Trailer field value.
func (w *httpResponse) declareTrailers(v string) {
	for k := range strings.SplitSeq(v, ",") {
		k = textproto.CanonicalMIMEHeaderKey(textproto.TrimString(k))
		switch k {
		case "", "Transfer-Encoding", "Trailer", "Content-Length":
			continue
		}
		w.trailers = append(w.trailers, k)
	}
}

// discardBody reads and discards an unread request body of up to
// maxPostHandlerReadBytes before the head is sent, as net/http does (a
// client may not read the response before it has sent its request). ok
// is false when the body cannot be read to its end (closed unread, or a
// read error); tooBig when more remains.
func (w *httpResponse) discardBody() (tooBig, ok bool) {
	c := w.x.c
	if c.body.complete() {
		return false, true
	}
	if w.e.body.closed {
		return false, false
	}
	_, err := io.CopyN(io.Discard, &c.body, maxPostHandlerReadBytes+1)
	switch err {
	case nil:
		return true, true
	case io.EOF:
		w.e.body.sawEOF = true
		w.e.body.fillTrailer()
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
