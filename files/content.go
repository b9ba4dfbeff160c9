package files

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// ServeContent answers the request with content, the representation of
// name last modified at modtime (zero when unknown), streamed from content
// and never held in memory. It implements what http.ServeContent does, on
// brisk's terms:
//
//   - validators: ETag is the one the handler set, else (when modtime is
//     known) a strong tag made of the size and modtime; Last-Modified is
//     modtime (RFC 9110 §8.8);
//   - conditional requests in the order of RFC 9110 §13.2.2: If-Match and
//     If-Unmodified-Since give 412, If-None-Match and If-Modified-Since
//     give 304 to GET and HEAD (412 to other methods);
//   - ranges (RFC 9110 §14) for GET, under If-Range: one range gives 206
//     with Content-Range, several a multipart/byteranges body, none
//     satisfiable 416 with "Content-Range: bytes */size"; a Range field of
//     more than DefaultMaxRanges ranges, or whose ranges overlap or add up
//     to more than the size, is ignored and the whole is sent (see
//     Server.MaxRanges);
//   - Content-Type: the handler's, else by the extension of name
//     (TypeByExtension), else sniffed from the first 512 bytes
//     (http.DetectContentType);
//   - HEAD gets the fields and Content-Length without the body.
//
// The size is found by seeking to the end. The body goes out with a
// Content-Length, by sendfile(2) when content is an *os.File on a plain
// TCP connection (see [brisk.BodyWriter.ReadFromN]). If content ends
// before its size, the response is cut short and the connection closed;
// so is it when content has a Stat method (an *os.File) that gives
// another size, mode or modification time before the last byte of a
// section goes out than when the response began (the file was rewritten
// while sent: its bytes are no longer the ones the validators name);
// a read or seek error before the body starts is answered 500, which
// keeps the fields the handler set but those describing the
// representation: ETag, Last-Modified, Content-Encoding, Cache-Control,
// Accept-Ranges, Content-Range and Content-Length. ServeContent does not
// check the method: a Server answers methods other than GET and HEAD with
// 405.
func ServeContent(c *brisk.Ctx, name string, modtime time.Time, content io.ReadSeeker) {
	size, err := content.Seek(0, io.SeekEnd)
	if err == nil {
		_, err = content.Seek(0, io.SeekStart)
	}
	if err != nil {
		c.Logger().Error("files: ServeContent: seek failed", "name", name, "err", err)
		answerError(&c.Response, 500)
		return
	}
	rep := representation{name: name, content: content, size: size, modtime: modtime}
	if f, ok := content.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := f.Stat(); err == nil && fi.Size() == size {
			rep.stamp = stampOf(fi)
		}
	}
	var tag [64]byte
	if t := c.Response.Header.Get("ETag"); t != nil {
		rep.etag = append(tag[:0], t...)
	} else if rep.hasModTime() {
		rep.etag = sizeModTimeETag(tag[:0], size, modtime)
	}
	serveRepresentation(c, &rep, DefaultMaxRanges)
}

// representation is one selected representation of a resource (RFC 9110
// §3.2): its bytes and metadata.
type representation struct {
	name    string        // for the media type
	content io.ReadSeeker // nil when data holds the bytes
	data    []byte        // the bytes, when held in memory (a cached file)
	size    int64
	modtime time.Time  // zero when unknown
	lastMod []byte     // modtime as an HTTP-date, nil to format it
	etag    []byte     // quoted entity-tag, nil for none
	coding  string     // content coding of the bytes, "" for identity
	ctype   string     // media type, "" to derive it from name or the bytes
	stamp   fileStamp  // what the validators describe, checked as content is sent
	tails   *sync.Pool // buffers for sendChecked; nil to allocate one
}

// hasModTime reports whether the modification time is known; like
// net/http, the Unix epoch counts as unknown.
func (r *representation) hasModTime() bool {
	return !r.modtime.IsZero() && !r.modtime.Equal(time.Unix(0, 0))
}

// lastModified is the modification time at the one-second resolution of
// an HTTP-date.
func (r *representation) lastModified() time.Time {
	return r.modtime.UTC().Truncate(time.Second)
}

// appendLastModified appends the Last-Modified value: lastModified as an
// IMF-fixdate (RFC 9110 §5.6.7).
func (r *representation) appendLastModified(b []byte) []byte {
	return r.lastModified().AppendFormat(b, http.TimeFormat)
}

// serveRepresentation answers the request with rep: validators,
// preconditions, media type, ranges, then the body.
func serveRepresentation(c *brisk.Ctx, rep *representation, maxRanges int) {
	h := &c.Response.Header
	setValidators(h, rep)
	switch checkPreconditions(&c.Request, rep) {
	case 304:
		c.Response.SetStatusCode(304)
		if rep.etag != nil {
			h.Del("Last-Modified")
		}
		return
	case 412:
		answerStatus(&c.Response, 412)
		return
	}
	if err := setMediaType(h, rep); err != nil {
		c.Logger().Error("files: reading a file to sniff its type failed", "name", rep.name, "err", err)
		answerError(&c.Response, 500)
		return
	}
	if rep.coding != "" {
		h.Set("Content-Encoding", rep.coding)
	}
	h.Set("Accept-Ranges", "bytes")
	var buf [DefaultMaxRanges]byteRange
	ranges, outcome := requestedRanges(&c.Request, rep, maxRanges, buf[:0])
	switch {
	case outcome == rangeUnsatisfiable:
		answerError(&c.Response, 416)
		h.Set("Content-Range", unsatisfiedRange(rep.size))
	case outcome == rangePartial && len(ranges) == 1:
		c.Response.SetStatusCode(206)
		var b [64]byte
		h.SetBytes([]byte("Content-Range"), ranges[0].appendContentRange(b[:0], rep.size))
		sendSections(c, rep, ranges, nil)
	case outcome == rangePartial:
		c.Response.SetStatusCode(206)
		boundary := newBoundary()
		ctype := string(h.Get("Content-Type"))
		h.Set("Content-Type", "multipart/byteranges; boundary="+boundary)
		sendSections(c, rep, ranges, &multipartHeads{boundary, ctype, rep.size})
	default:
		sendSections(c, rep, []byteRange{{0, rep.size}}, nil)
	}
}

// answerStatus answers code with its reason phrase as a text/plain body,
// keeping the fields already set (validators, Vary, nosniff).
func answerStatus(r *brisk.Response, code int) {
	r.SetStatusCode(code)
	r.SetReason("")
	r.Header.Set("Content-Type", "text/plain; charset=utf-8")
	var b [64]byte // the longest reason phrase has 31 bytes
	r.SetBody(append(append(b[:0], wire.StatusText(code)...), '\n'))
}

// representationFields are the fields that describe a representation,
// which an error answer does not carry.
var representationFields = [...]string{"ETag", "Last-Modified", "Content-Encoding", "Cache-Control",
	"Accept-Ranges", "Content-Range", "Content-Length"}

// answerError answers code with its reason phrase as a text/plain body in
// place of the representation. The fields set before stay (Vary,
// X-Content-Type-Options, those a middleware set), except
// representationFields: as net/http's ServeContent has since Go 1.23, an
// error drops ETag, Last-Modified, Content-Encoding and Cache-Control
// (caching the error as the file would be is wrong), and with them the
// range and length fields of the body not sent.
func answerError(r *brisk.Response, code int) {
	for _, f := range representationFields {
		r.Header.Del(f)
	}
	answerStatus(r, code)
}

// setValidators sets ETag and Last-Modified (RFC 9110 §8.8).
func setValidators(h *brisk.Header, rep *representation) {
	if rep.etag != nil {
		h.SetBytes([]byte("ETag"), rep.etag)
	}
	switch {
	case rep.lastMod != nil:
		h.SetBytes([]byte("Last-Modified"), rep.lastMod)
	case rep.hasModTime():
		var b [len(http.TimeFormat)]byte
		h.SetBytes([]byte("Last-Modified"), rep.appendLastModified(b[:0]))
	}
}

// checkPreconditions evaluates the conditional fields of req against rep
// in the order of RFC 9110 §13.2.2 and returns 412, 304, or 0 to go on.
// If-Unmodified-Since and If-Modified-Since are ignored when If-Match,
// respectively If-None-Match, is present, when rep has no modification
// time, and when the value is not one valid HTTP-date; If-Modified-Since
// also for methods other than GET and HEAD.
func checkPreconditions(req *brisk.Request, rep *representation) int {
	h := &req.Header
	if h.Has("If-Match") {
		if !etagMatch(h, "If-Match", rep.etag, true) {
			return 412
		}
	} else if t, ok := fieldDate(h, "If-Unmodified-Since"); ok && rep.hasModTime() && rep.lastModified().After(t) {
		return 412
	}
	safe := string(req.Method()) == "HEAD" || string(req.Method()) == "GET"
	if h.Has("If-None-Match") {
		if !etagMatch(h, "If-None-Match", rep.etag, false) {
			return 0
		}
		if safe {
			return 304
		}
		return 412
	}
	if t, ok := fieldDate(h, "If-Modified-Since"); ok && safe && rep.hasModTime() && !rep.lastModified().After(t) {
		return 304
	}
	return 0
}

// fieldDate parses the field name of h as one HTTP-date (RFC 9110
// §5.6.7, all three formats); ok is false when it is absent, repeated or
// invalid.
func fieldDate(h *brisk.Header, name string) (t time.Time, ok bool) {
	n := 0
	var v []byte
	for x := range h.Values(name) {
		v, n = x, n+1
	}
	if n != 1 {
		return t, false
	}
	t, err := http.ParseTime(string(v))
	return t, err == nil
}

// requestedRanges evaluates the Range field of a GET, under If-Range
// (RFC 9110 §13.1.5): a Range on another method, or whose If-Range does
// not hold, is ignored.
func requestedRanges(req *brisk.Request, rep *representation, maxRanges int, dst []byteRange) ([]byteRange, rangeOutcome) {
	h := &req.Header
	v := h.Get("Range")
	if v == nil || string(req.Method()) != "GET" || !ifRangeHolds(h, rep) {
		return dst, rangeIgnore
	}
	if maxRanges <= 0 {
		maxRanges = DefaultMaxRanges
	}
	return parseRange(v, rep.size, maxRanges, dst)
}

// ifRangeHolds evaluates If-Range: true when absent, when it is an
// entity-tag strongly equal to rep's, or when it is an HTTP-date equal to
// rep's Last-Modified.
func ifRangeHolds(h *brisk.Header, rep *representation) bool {
	v := h.Get("If-Range")
	if v == nil {
		return true
	}
	v = ascii.TrimOWS(v)
	if len(v) > 0 && (v[0] == '"' || v[0] == 'W') {
		return isStrongETag(v) && string(v) == string(rep.etag) && rep.etag[0] == '"'
	}
	t, err := http.ParseTime(string(v))
	return err == nil && rep.hasModTime() && rep.lastModified().Equal(t)
}

// setMediaType sets Content-Type unless the handler did: rep.ctype, else
// by extension, else (identity coding only) sniffed, else
// application/octet-stream.
func setMediaType(h *brisk.Header, rep *representation) error {
	if h.Has("Content-Type") {
		return nil
	}
	t := rep.ctype
	if t == "" {
		t = TypeByExtension(rep.name)
	}
	if t == "" && rep.coding == "" {
		var err error
		if t, err = sniffType(rep.content); err != nil {
			return err
		}
	}
	if t == "" {
		t = "application/octet-stream"
	}
	h.Set("Content-Type", t)
	return nil
}

// multipartHeads describes the parts of a multipart/byteranges body
// (RFC 9110 §14.6): each part's head is
// "--boundary CRLF Content-Type CRLF Content-Range CRLF CRLF" (CRLF first
// after the first part), and the body ends with "CRLF --boundary-- CRLF".
type multipartHeads struct {
	boundary, ctype string
	size            int64
}

// part returns the head of the part for r, the first one when first.
func (m multipartHeads) part(r byteRange, first bool) string {
	s := "--" + m.boundary + "\r\n"
	if !first {
		s = "\r\n" + s
	}
	if m.ctype != "" {
		s += "Content-Type: " + m.ctype + "\r\n"
	}
	return s + "Content-Range: " + r.contentRange(m.size) + "\r\n\r\n"
}

// end returns the close-delimiter.
func (m multipartHeads) end() string { return "\r\n--" + m.boundary + "--\r\n" }

// newBoundary returns a random multipart boundary: 24 hex digits, which a
// file cannot be made to contain by guessing.
func newBoundary() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// sendSections sends the ranges of rep as the body with a Content-Length:
// one section as is (m is nil) or each as a part of the multipart/byteranges
// body m describes. HEAD gets the Content-Length only. A
// seek error before the body started is answered 500; a file that ends
// early cuts the response short and closes the connection. Errors are
// logged, except those writing to the connection.
func sendSections(c *brisk.Ctx, rep *representation, ranges []byteRange, m *multipartHeads) {
	multi := m != nil
	length := int64(0)
	for i, r := range ranges {
		length += r.length
		if multi {
			length += int64(len(m.part(r, i == 0)))
		}
	}
	if multi {
		length += int64(len(m.end()))
	}
	var b [20]byte
	c.Response.Header.SetBytes([]byte("Content-Length"), strconv.AppendInt(b[:0], length, 10))
	if string(c.Request.Method()) == "HEAD" {
		return
	}
	bw := c.BodyWriter()
	for i, r := range ranges {
		if multi {
			bw.WriteString(m.part(r, i == 0))
		}
		if err := sendSection(bw, rep, r); err != nil {
			if err != bw.Err() { // not the response failing on its way out: the client gone
				c.Logger().Error("files: serving a file failed", "name", rep.name, "err", err)
			}
			if !bw.Started() {
				answerError(&c.Response, 500)
			}
			return
		}
	}
	if multi {
		bw.WriteString(m.end())
	}
}

// sendSection sends r.length bytes of rep from r.start.
func sendSection(bw *brisk.BodyWriter, rep *representation, r byteRange) error {
	if rep.content == nil {
		_, err := bw.Write(rep.data[r.start : r.start+r.length])
		return err
	}
	if _, err := rep.content.Seek(r.start, io.SeekStart); err != nil {
		return err
	}
	var n int64
	var err error
	if rep.stamp.ok && r.length > 0 {
		n, err = sendChecked(bw, rep.content, r.start, r.length, &rep.stamp, rep.tails)
	} else {
		n, err = bw.ReadFromN(rep.content, r.length)
	}
	if err == nil && n < r.length && bw.Err() == nil {
		err = errShrank
	}
	return err
}
