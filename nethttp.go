package brisk

import (
	"bufio"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/brisk-http/brisk/wire"
)

// FromHTTP returns a Handler that serves each request with the net/http
// handler h, with net/http's semantics as far as h can observe them:
//
//   - the *http.Request is the one net/http.Server would build (method,
//     URL, RequestURI, Proto, Host, Header with canonical keys and every
//     value in order, Host and a chunked Transfer-Encoding moved out of
//     Header, ContentLength, TransferEncoding, Close, RemoteAddr, TLS
//     when the connection is a *tls.Conn, declared Trailer keys filled
//     once Body reaches EOF);
//   - Body streams from the connection (nothing is read before h asks),
//     sends "100 Continue" on the first read when the client expects it,
//     and fails with an *http.MaxBytesError when a chunked body grows
//     past Server.MaxBodyBytes (a larger Content-Length is answered 413
//     before h runs);
//   - the ResponseWriter writes the response head and body net/http
//     writes, byte for byte but the Date value: sorted fields, a sniffed
//     Content-Type when none is set, Content-Length when the handler
//     returns with at most 2048 body bytes written and no Flush, chunked
//     (HTTP/1.1) or close-delimited (HTTP/1.0) otherwise, the HEAD, 1xx,
//     204 and 304 rules, trailers (declared and http.TrailerPrefix), 1xx
//     responses from WriteHeader, and the same keep-alive decision;
//   - it implements http.Flusher, http.Hijacker (see Ctx.Hijack) and the
//     methods of http.NewResponseController: Flush, Hijack,
//     SetReadDeadline and SetWriteDeadline (which replace
//     Server.ReadTimeout and WriteTimeout until the request ends, as
//     net/http's replace its timeouts; the minimum data rates still
//     apply) and EnableFullDuplex;
//   - a panic in h closes the connection after the responses to earlier
//     requests, with nothing of this response when its head was not sent
//     yet, else with what was sent cut short (no last-chunk), and is
//     logged to Server.Logger with its stack, unless it is
//     http.ErrAbortHandler.
//
// The ResponseWriter's Header starts with the fields already set on
// Ctx.Response (by brisk middleware around the returned Handler: a
// request ID, CORS), as net/http middleware would set them before
// calling h.
//
// Request.Context is cancelled when h returns, when the server shuts down
// and, unless Server.IgnoreClientClose is set, when the client closes
// the connection; it carries http.LocalAddrContextKey (not
// http.ServerContextKey: there is no *http.Server).
//
// Differences: the *http.Request, its URL, Header and Body, and the
// ResponseWriter and its Header are reused for later requests once h
// returns, so h must not keep them (net/http already forbids it for Body
// and the ResponseWriter); copy what must outlive the call. Field values
// are those brisk's stricter parser accepted (see Server). A 1xx from
// WriteHeader is not sent to an HTTP/1.0 request (RFC 9110 §15.2), where
// net/http sends it. A close-delimited (HTTP/1.0) body cut short by a
// panic ends with a reset, where net/http sends a FIN that the client
// cannot tell from the body's end. An http.MaxBytesReader past its limit
// closes the connection after the response, as on net/http, when it is
// the Body of the *http.Request h received (r.Body =
// http.MaxBytesReader(w, r.Body, n)): net/http's reader reports to
// net/http's own ResponseWriter through a method no other package can
// implement, so FromHTTP looks at r.Body instead, and one kept elsewhere
// (on a copy of r, or in a variable) is not seen. http.Server settings
// (timeouts, ConnState, ErrorLog) have their Server counterparts.
func FromHTTP(h http.Handler) Handler {
	a := &httpAdaptor{h: h}
	a.pool.New = func() any { return newHTTPExchange() }
	return a.serve
}

// httpAdaptor is the Handler FromHTTP returns, with its own pool of
// per-request objects.
type httpAdaptor struct {
	h    http.Handler
	pool sync.Pool // *httpExchange
}

// httpExchange holds the net/http objects of one request, reused across
// requests.
type httpExchange struct {
	base   http.Request // built fields; the handler gets a copy carrying the context
	url    url.URL
	header http.Header
	values []string // one-value slices of header, by field line
	te     [1]string
	raddr  *net.TCPAddr // the last client address, and its string
	rstr   string
	body   httpBody
	w      httpResponse
}

func newHTTPExchange() *httpExchange {
	e := &httpExchange{header: make(http.Header)}
	e.body.e = e
	e.w.e = e
	e.w.bw = bufio.NewWriterSize(chunkWriter{&e.w}, bufferBeforeChunking)
	return e
}

func (a *httpAdaptor) serve(x *Ctx) {
	e := a.pool.Get().(*httpExchange)
	defer a.pool.Put(e)
	if !e.buildRequest(x) {
		x.Response.setError(400)
		x.c.keepAlive = false
		return
	}
	ctx, cancel := context.WithCancel(x.Context()) // r.Context(): the handler may ask
	r := e.base.WithContext(localAddrCtx{ctx, x.LocalAddr()})
	e.w.reset(x, r)
	defer e.release(cancel)
	defer e.w.closeOnPanic()
	if r.RequestURI == "*" && r.Method == "OPTIONS" {
		globalOptions(&e.w, r)
	} else {
		a.h.ServeHTTP(&e.w, r)
	}
	e.w.finish()
}

// closeOnPanic answers a panic of the handler as net/http does: the
// panic is logged (but http.ErrAbortHandler) and the connection closed,
// after the responses to earlier requests, with nothing of this response
// when its head was not sent, else with the response cut short as for any
// handler panic (no last-chunk; a reset for a close-delimited body). A
// hijacked connection is the handler's: it is left alone.
func (w *httpResponse) closeOnPanic() {
	p := recover()
	if p == nil {
		return
	}
	c := w.x.c
	if p != http.ErrAbortHandler {
		c.logPanic(p)
	}
	if c.hijacked {
		return
	}
	c.keepAlive = false
	bw := &w.x.bw
	if !bw.started { // a response without a head: nothing is written
		bw.started = true
		bw.plan = headPlan{framing: wire.FramingNone}
	}
	bw.abort()
}

// globalOptions answers "OPTIONS *" as net/http.Server does, without
// calling the handler.
func globalOptions(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Length", "0")
	if r.ContentLength != 0 {
		io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, 4<<10))
	}
}

// release cancels the request's context and drops the references the
// pooled objects hold.
func (e *httpExchange) release(cancel context.CancelFunc) {
	cancel()
	e.w.endExchange()
	e.body.reset(nil) // no flag carries over to the next request
	clear(e.values)
	e.base = http.Request{}
}

// buildRequest fills e.base from the received request as
// net/http.Server's readRequest does; false means net/http would answer
// 400.
func (e *httpExchange) buildRequest(x *Ctx) bool {
	q := &x.Request
	r := &e.base
	r.Method = methodString(q.head.Method)
	r.RequestURI = string(q.head.Target)
	rawURL := r.RequestURI
	justAuthority := r.Method == "CONNECT" && !strings.HasPrefix(rawURL, "/")
	if justAuthority {
		rawURL = "http://" + rawURL
	}
	if !originURL(&e.url, rawURL) {
		u, err := url.ParseRequestURI(rawURL)
		if err != nil {
			return false
		}
		e.url = *u
	}
	if justAuthority {
		e.url.Scheme = ""
	}
	r.URL = &e.url
	r.Proto = q.Proto()
	r.ProtoMajor, r.ProtoMinor = 1, int(q.head.Minor)
	e.fillHeader(q)
	r.Header = e.header
	r.Host = r.URL.Host
	if r.Host == "" {
		r.Host = headerGet(e.header, "Host")
	}
	delete(e.header, "Host")
	if v := e.header["Pragma"]; len(v) > 0 && v[0] == "no-cache" {
		if _, ok := e.header["Cache-Control"]; !ok {
			e.header["Cache-Control"] = []string{"no-cache"}
		}
	}
	r.Close = !q.head.KeepAlive()
	r.ContentLength = q.ContentLength()
	r.Body = http.NoBody
	if q.head.Framing() != wire.FramingNone {
		e.body.reset(x)
		r.Body = &e.body
	}
	if q.head.Chunked {
		e.te[0] = "chunked"
		r.TransferEncoding = e.te[:1:1]
		delete(e.header, "Transfer-Encoding")
		if !e.declareTrailers() {
			return false
		}
	}
	r.RemoteAddr = e.remoteAddr(x.RemoteAddr())
	if tc, ok := x.c.nc.(*tls.Conn); ok {
		st := tc.ConnectionState()
		r.TLS = &st
	}
	return true
}

// remoteAddr returns a.String(), reusing the last string for the same
// *net.TCPAddr (a connection's requests share it).
func (e *httpExchange) remoteAddr(a net.Addr) string {
	ta, ok := a.(*net.TCPAddr)
	if !ok {
		return a.String()
	}
	if ta != e.raddr {
		e.raddr, e.rstr = ta, ta.String()
	}
	return e.rstr
}

// originURL sets u to what url.ParseRequestURI returns for an
// origin-form target whose path needs no decoding and no RawPath (its
// bytes are those url leaves unescaped in a path), without allocating;
// it reports false for any other target.
func originURL(u *url.URL, target string) bool {
	path, query, hasQuery := strings.Cut(target, "?")
	if len(path) == 0 || path[0] != '/' {
		return false
	}
	for i := 0; i < len(path); i++ {
		if !plainURLPath[path[i]] {
			return false
		}
	}
	*u = url.URL{Path: path, RawQuery: query, ForceQuery: hasQuery && query == ""}
	return true
}

// plainURLPath marks the bytes url.URL keeps as they are in a path
// (shouldEscape(c, encodePath) is false): ALPHA, DIGIT, "-._~" and
// "$&+,/:;=@".
var plainURLPath = func() (t [256]bool) {
	for c := range 256 {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.IndexByte("-._~$&+,/:;=@", byte(c)) >= 0
	}
	return t
}()

// fillHeader fills e.header from the field lines (see addFields), the
// values backed by e.values.
func (e *httpExchange) fillHeader(q *Request) {
	clear(e.header)
	fields := q.Header.fields
	if cap(e.values) < len(fields) {
		e.values = make([]string, len(fields))
	}
	addFields(e.header, fields, q.Header.raw, e.values[:len(fields)], nil)
}

// addFields adds fields, whose names and values lie in raw, to h under
// their canonical keys (textproto.CanonicalMIMEHeaderKey), values in wire
// order, but for those whose key is in skip. Keys and values are
// substrings of one string copy of raw, and vals (one per field) backs
// the value slices: h keeps both. It allocates that copy, and a key for
// a name neither canonical nor common.
func addFields(h http.Header, fields []wire.Field, raw []byte, vals []string, skip []string) {
	s := string(raw)
	for i := range fields {
		f := &fields[i]
		key := textproto.CanonicalMIMEHeaderKey(substring(s, raw, f.Name))
		if slices.Contains(skip, key) {
			continue
		}
		vals[i] = substring(s, raw, f.Value)
		if vv, ok := h[key]; ok {
			h[key] = append(vv, vals[i])
		} else {
			h[key] = vals[i : i+1 : i+1]
		}
	}
}

// substring returns b as a substring of s, the string copy of raw, when
// b lies within raw, else a copy of b.
func substring(s string, raw, b []byte) string {
	if len(b) == 0 {
		return ""
	}
	off := uintptr(unsafe.Pointer(unsafe.SliceData(b))) - uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	if off >= uintptr(len(raw)) || int(off)+len(b) > len(raw) {
		return string(b)
	}
	return s[off : int(off)+len(b)]
}

// declareTrailers moves the Trailer field into r.Trailer's keys (values
// nil until the body's end), as net/http's fixTrailer does.
func (e *httpExchange) declareTrailers() bool {
	vv, ok := e.header["Trailer"]
	if !ok {
		return true
	}
	delete(e.header, "Trailer")
	t := make(http.Header)
	for _, v := range vv {
		for k := range strings.SplitSeq(v, ",") {
			k = textproto.CanonicalMIMEHeaderKey(textproto.TrimString(k))
			switch k {
			case "Transfer-Encoding", "Trailer", "Content-Length":
				return false
			case "":
				continue
			}
			t[k] = nil
		}
	}
	if len(t) > 0 {
		e.base.Trailer = t
	}
	return true
}

// headerGet returns the first value of key (canonical), "" when absent.
func headerGet(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// methodString returns m as a string, without allocating for the
// methods of RFC 9110 §9 and PATCH.
func methodString(m []byte) string {
	for _, s := range [...]string{"GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "CONNECT", "TRACE"} {
		if string(m) == s {
			return s
		}
	}
	return string(m)
}

// localAddrCtx adds http.LocalAddrContextKey to a request's context.
type localAddrCtx struct {
	context.Context
	addr net.Addr
}

func (c localAddrCtx) Value(key any) any {
	if key == http.LocalAddrContextKey {
		return c.addr
	}
	return c.Context.Value(key)
}

// httpBody is the Request.Body of a request with content: brisk's body
// stream with net/http's Close and errors.
type httpBody struct {
	e          *httpExchange
	x          *Ctx // nil once the handler returned
	closed     bool
	sawEOF     bool
	earlyClose bool // Close left a rest unread: the connection closes
}

func (b *httpBody) reset(x *Ctx) { b.x, b.closed, b.sawEOF, b.earlyClose = x, false, false, false }

// Read reads the body; past Server.MaxBodyBytes it fails with an
// *http.MaxBytesError, after Close with http.ErrBodyReadAfterClose.
func (b *httpBody) Read(p []byte) (int, error) {
	if b.closed || b.x == nil {
		return 0, http.ErrBodyReadAfterClose
	}
	return b.read(p)
}

// WriteTo implements io.WriterTo as Read reads, in pieces of up to
// 64 KiB (bodyReader.WriteTo).
func (b *httpBody) WriteTo(w io.Writer) (int64, error) {
	if b.closed || b.x == nil {
		return 0, http.ErrBodyReadAfterClose
	}
	return copyBody(w, b, &b.x.c.srv.pools)
}

// read is Read, closed or not. Like net/http's, it returns io.EOF with
// the last bytes when the body's end is already decoded.
func (b *httpBody) read(p []byte) (int, error) {
	if b.sawEOF {
		return 0, io.EOF
	}
	b.continueIfExpected()
	r := &b.x.c.body
	n, err := r.Read(p)
	if n > 0 && err == nil && r.dec.Done() && r.p0 == r.p1 {
		err = io.EOF
		b.x.c.bodyRead() // as r's own io.EOF does
	}
	switch {
	case err == io.EOF:
		b.sawEOF = true
		b.fillTrailer()
	case err == ErrBodyTooLarge:
		err = &http.MaxBytesError{Limit: b.x.c.lim.maxBody}
	}
	return n, err
}

// continueIfExpected sends "100 Continue" before the first read when the
// client expects it, even when body bytes are already buffered (brisk's
// own reader omits it then, as RFC 9110 §10.1.1 allows; net/http does
// not).
func (b *httpBody) continueIfExpected() {
	c := b.x.c
	if r := &c.body; r.expect && !r.started && c.in.Len() > 0 {
		r.expect = false
		w := c.writeBuf()
		w.b = append(w.b, "HTTP/1.1 100 Continue\r\n\r\n"...)
		c.flush()
	}
}

// Close makes later reads fail with http.ErrBodyReadAfterClose. Like
// net/http's, it first reads and discards the rest of the body, up to
// maxPostHandlerReadBytes, so that the connection can serve the next
// request: a longer rest (a Content-Length rest is then not read at all)
// closes the connection after the response. Nothing is read when the
// connection closes anyway: the request asks for it, or the client
// waits for "100 Continue" (net/http reads then, but closes all the
// same). It returns the read error, if any.
func (b *httpBody) Close() error {
	if b.closed || b.x == nil {
		b.closed = true
		return nil
	}
	b.closed = true
	h := &b.x.Request.head
	dec := &b.x.c.body.dec
	chunked := dec.Framing() == wire.FramingChunked
	switch {
	case b.sawEOF:
	case !chunked && !h.KeepAlive(), h.Expect100 && h.Minor >= 1:
	case !chunked && dec.Remaining() > maxPostHandlerReadBytes:
		b.earlyClose = true
	default:
		n, err := io.CopyN(io.Discard, bodyRest{b}, maxPostHandlerReadBytes)
		if n == maxPostHandlerReadBytes {
			b.earlyClose = true
		}
		if err != io.EOF {
			return err
		}
	}
	return nil
}

// bodyRest reads a body, closed or not (for Close and the discard
// before the response head).
type bodyRest struct{ b *httpBody }

func (r bodyRest) Read(p []byte) (int, error) { return r.b.read(p) }

// fillTrailer merges the received trailer section into Request.Trailer.
func (b *httpBody) fillTrailer() {
	t := &b.x.Request.Trailer
	if t.Len() == 0 {
		return
	}
	hr := b.e.w.req
	if hr.Trailer == nil {
		hr.Trailer = make(http.Header)
	}
	for name, value := range t.All() {
		key := textproto.CanonicalMIMEHeaderKey(string(name))
		hr.Trailer[key] = append(hr.Trailer[key], string(value))
	}
}
