// Package compress compresses brisk responses with the content coding a
// client accepts best (RFC 9110 §8.4, §12.5.3): Zstandard, Brotli or gzip,
// through github.com/klauspost/compress and, for Brotli,
// github.com/molecule-man/go-brrr (pure Go). It also decodes compressed
// request bodies, on request, within limits on the decoded size and the
// decoder's memory (BodyReader, BodyDecoder), with package decode's
// decoders.
//
// It is a package of its own so that programs that import only brisk do
// not link the encoders.
package compress

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/accept"
	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// Coding names, as in Accept-Encoding and Content-Encoding.
const (
	Zstd   = "zstd"
	Brotli = "br"
	Gzip   = "gzip"
)

// Defaults of Config.
const (
	DefaultMinSize     = 1024
	DefaultGzipLevel   = 5
	DefaultZstdLevel   = 3
	DefaultBrotliLevel = 4
)

// Config configures New. The zero value is ready to use.
type Config struct {
	// Codings lists the codings offered, by name (Zstd, Brotli, Gzip), in
	// the server's order of preference when the client gives them equal
	// q-values. Nil or empty means {Zstd, Brotli, Gzip}. An unknown name
	// makes New panic.
	Codings []string

	// GzipLevel is the gzip level, 1 (fastest) to 9 (smallest). Zero
	// means DefaultGzipLevel (5); other values out of range make New
	// panic.
	GzipLevel int

	// ZstdLevel is the Zstandard level, 1 to 22, mapped to the encoder's
	// nearest speed (zstd.EncoderLevelFromZstd). Zero means
	// DefaultZstdLevel (3). Unlike the other levels, one out of range
	// does not panic: below 1 is the fastest speed, above 22 the best
	// compression.
	ZstdLevel int

	// BrotliLevel is the Brotli quality, 1 (fastest) to 11 (smallest;
	// 10 and 11 use up to two worker goroutines per body).
	// Zero means DefaultBrotliLevel (4); other values out of range make
	// New panic.
	BrotliLevel int

	// MinSize is the smallest body compressed, in bytes: a shorter one
	// (which compression would barely shrink, or grow) is sent as is.
	// Zero means DefaultMinSize (1024); negative means any size. The
	// size is the buffered body's length or the declared Content-Length:
	// a streamed body without one is compressed whatever its size.
	MinSize int

	// Compressible reports whether a response of the given Content-Type
	// is worth compressing. Nil means Compressible.
	Compressible func(contentType []byte) bool
}

// New returns a middleware that compresses the responses of a handler
// with the coding the request's Accept-Encoding prefers (q-values, "*",
// "x-gzip"), ties going to Config.Codings' order. A coding weighted
// below identity is not used ("br;q=0.1, identity" is sent as is); at
// equal weights a coding goes before identity ("gzip, identity" gives
// gzip). A client that rules out identity and accepts none of the
// codings gets the response as is. A compressed response
// gets Content-Encoding, "Vary: Accept-Encoding" (added to any Vary the
// handler set), and its ETag, if strong, made weak (W/"..."): the bytes
// differ from the identity representation's. A response that could have
// been compressed also gets the Vary, so that caches keep the variants
// apart. A 304 answering an If-None-Match that lists the weak tag of a
// compressed 200 (W/"x" for the handler's "x") but not "x" gets W/"x"
// and the Vary too: the validator of the copy the client holds.
//
// A response is left alone when it answers CONNECT, its status is 1xx,
// 204, 206 or 304, it has a Content-Encoding or Content-Range, its
// Cache-Control has no-transform (RFC 9111 §5.2.2.6), its Content-Type
// is absent or not compressible, its body is empty or, by its length
// or declared Content-Length, shorter than MinSize, or compressing a
// buffered body would not make it shorter.
//
// A HEAD is negotiated as the GET would be, from what the handler set
// (fields, status, the buffered body's length or else its
// Content-Length), and gets the fields the GET would (RFC 9110 §9.3.2,
// RFC 9111 §4.3.5): Content-Encoding, the Vary and the weak ETag, but
// no Content-Length, since the compressed length is known only by
// compressing, which a HEAD does not do (§8.6). It cannot tell that
// compressing would not shrink the body: for a body of a compressible
// type that does not compress, the HEAD names a coding the GET does not
// use.
//
// A buffered body (Response.SetBody, Write) is compressed after the
// handler returns, through pooled encoders and buffers: no allocation
// per response once warm, for gzip and zstd. A body streamed through
// Ctx.BodyWriter is compressed as it is written, whatever its length
// unless it declares a Content-Length below MinSize (that field is
// dropped when it is compressed: it goes out chunked), through
// a brisk.BodyFilter; each BodyWriter.Flush emits a block that the client
// can decode up to that point.
//
// New panics on an invalid Config.
func New(cfg Config) func(brisk.Handler) brisk.Handler {
	m := newMiddleware(cfg)
	return func(next brisk.Handler) brisk.Handler {
		return func(c *brisk.Ctx) {
			f := m.filters.Get().(*streamFilter)
			c.BodyWriter().SetFilter(f)
			next(c)
			f.end()
			if c.Response.StatusCode() == 304 {
				matchNotModified(c, &f.tag)
			} else {
				m.compressBuffered(c, &f.tag)
			}
			m.filters.Put(f)
		}
	}
}

// middleware is one New's state: its configuration and encoder pools.
type middleware struct {
	offers       []string // coding names, in preference order
	encoders     []*encoderPool
	minSize      int
	compressible func([]byte) bool
	buffers      bufferPool
	filters      sync.Pool // of *streamFilter
}

func newMiddleware(cfg Config) *middleware {
	m := &middleware{offers: cfg.Codings, minSize: cfg.MinSize, compressible: cfg.Compressible}
	if len(m.offers) == 0 {
		m.offers = []string{Zstd, Brotli, Gzip}
	}
	if len(m.offers) > accept.MaxOffers {
		panic("compress: too many codings")
	}
	switch {
	case m.minSize == 0:
		m.minSize = DefaultMinSize
	case m.minSize < 0:
		m.minSize = 0
	}
	m.filters.New = func() any { return &streamFilter{m: m} }
	if m.compressible == nil {
		m.compressible = Compressible
	}
	for _, name := range m.offers {
		p, err := newEncoderPool(name, cfg)
		if err != nil {
			panic(err)
		}
		m.encoders = append(m.encoders, p)
	}
	return m
}

// negotiate decides the coding of the response to c, for GET and HEAD
// alike: from its status and fields (see eligible), size, the length of
// its body in bytes (-1 when unknown: streamed without Content-Length),
// and the request's Accept-Encoding. It returns the chosen coding's
// encoders, or nil for identity. It adds "Vary: Accept-Encoding" to a
// response of a compressible kind with a body, whatever the choice, so
// that caches keep the variants apart.
func (m *middleware) negotiate(c *brisk.Ctx, size int64) *encoderPool {
	if size == 0 || !m.eligible(c) {
		return nil
	}
	addVary(&c.Response.Header)
	if size > 0 && size < int64(m.minSize) {
		return nil
	}
	return m.choose(c)
}

// eligible reports whether the response to c may be compressed, leaving
// aside its size and the client's Accept-Encoding.
func (m *middleware) eligible(c *brisk.Ctx) bool {
	r := &c.Response
	switch code := r.StatusCode(); {
	case code < 200, code == 204, code == 206, code == 304:
		return false
	}
	method := c.Request.Method()
	h := &r.Header
	return string(method) != "CONNECT" && !h.Has("Content-Encoding") && !h.Has("Content-Range") &&
		!h.HasToken("Cache-Control", "no-transform") && m.compressible(h.Get("Content-Type"))
}

// choose returns the encoder pool for the coding the request prefers to
// identity (see accept.Order), or nil for identity.
func (m *middleware) choose(c *brisk.Ctx) *encoderPool {
	var values [4][]byte
	vs := values[:0]
	for v := range c.Request.Header.Values("Accept-Encoding") {
		vs = append(vs, v)
	}
	if i := accept.Negotiate(vs, m.offers); i >= 0 {
		return m.encoders[i]
	}
	return nil
}

// compressBuffered compresses the buffered body of the response, when
// negotiate picks a coding and the result is shorter. A HEAD gets the
// fields instead (see encodeHead). tag is scratch storage (setWeakETag).
func (m *middleware) compressBuffered(c *brisk.Ctx, tag *[]byte) {
	if c.BodyWriter().Started() {
		return
	}
	enc := m.negotiate(c, bufferedLength(c))
	if enc == nil {
		return
	}
	if isHead(c) {
		encodeHead(c, enc.name, tag)
		return
	}
	r := &c.Response
	body := r.Body()
	buf := m.buffers.get()
	defer m.buffers.put(buf)
	if err := enc.compress(buf, body); err != nil || buf.Len() >= len(body) {
		return
	}
	r.SetBody(buf.Bytes())
	setEncoded(&r.Header, enc.name, tag)
}

// encodeHead gives the response to a HEAD the fields of the encoded GET
// (setEncoded) and no Content-Length: the compressed length is known only
// by compressing, which a HEAD is not worth (RFC 9110 §9.3.2, §8.6).
func encodeHead(c *brisk.Ctx, coding string, tag *[]byte) {
	setEncoded(&c.Response.Header, coding, tag)
	c.Response.SetLengthUnknown()
}

// bufferedLength returns the length in bytes of the body the server
// frames for a buffered response: the buffered body's, or, for a HEAD
// with none, the handler's Content-Length (zero when absent or invalid).
func bufferedLength(c *brisk.Ctx) int64 {
	if n := len(c.Response.Body()); n > 0 || !isHead(c) {
		return int64(n)
	}
	return max(declaredLength(&c.Response.Header), 0)
}

// declaredLength returns the value of the Content-Length field, or -1
// when it is absent or not a decimal int64 (wire.ParseDecimal).
func declaredLength(h *brisk.Header) int64 {
	if n, ok := wire.ParseDecimal(h.Get("Content-Length")); ok {
		return n
	}
	return -1
}

func isHead(c *brisk.Ctx) bool { return string(c.Request.Method()) == "HEAD" }

// setEncoded marks the response as encoded with coding: Content-Encoding,
// a strong ETag made weak (the bytes differ from the identity
// representation's), and no Content-Length (the identity body's).
// scratch is as for setWeakETag.
func setEncoded(h *brisk.Header, coding string, scratch *[]byte) {
	h.Set("Content-Encoding", coding)
	h.Del("Content-Length")
	if tag := h.Get("ETag"); len(tag) > 0 && tag[0] == '"' {
		setWeakETag(h, tag, scratch)
	}
}

// setWeakETag sets ETag to W/tag, the weak form of the strong tag,
// building it in *scratch (the Header copies it): storage kept with the
// pooled streamFilter, so that it allocates nothing once warm.
func setWeakETag(h *brisk.Header, tag []byte, scratch *[]byte) {
	*scratch = append(append((*scratch)[:0], "W/"...), tag...)
	h.SetBytes(etagName, *scratch)
}

// etagName is the field name for SetBytes, which takes a []byte.
var etagName = []byte("ETag")

// addVary adds "Accept-Encoding" to the Vary field, unless it lists it
// or "*" already.
func addVary(h *brisk.Header) {
	if h.HasToken("Vary", "Accept-Encoding") || h.HasToken("Vary", "*") {
		return
	}
	h.Add("Vary", "Accept-Encoding")
}

// Compressible reports whether a Content-Type names a compressible media
// type: text/*, JSON, XML and JavaScript (including the +json and +xml
// suffixes), SVG, WebAssembly, and uncompressed fonts (TTF, OTF). Images,
// audio, video, archives and WOFF fonts are compressed already.
func Compressible(contentType []byte) bool {
	mt := contentType
	if i := bytes.IndexByte(mt, ';'); i >= 0 {
		mt = mt[:i]
	}
	mt = bytes.TrimSpace(mt)
	if len(mt) >= 5 && ascii.EqualFold(mt[:5], "text/") {
		return true
	}
	for _, t := range compressibleTypes {
		if ascii.EqualFold(mt, t) {
			return true
		}
	}
	for _, suffix := range []string{"+json", "+xml"} {
		if len(mt) > len(suffix) && ascii.EqualFold(mt[len(mt)-len(suffix):], suffix) {
			return true
		}
	}
	return false
}

var compressibleTypes = []string{
	"application/json", "application/javascript", "application/x-javascript", "application/xml",
	"application/wasm", "application/x-ndjson", "application/graphql-response+json",
	"font/ttf", "font/otf", "application/vnd.ms-fontobject",
}

// errLevel reports a level out of range.
func errLevel(coding string, level int) error {
	return fmt.Errorf("compress: %s level %d out of range", coding, level)
}
