package compress

import (
	"bufio"
	"io"
	"sync"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/decode"
	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/klauspost/compress/zstd"
)

// decoderPool pools the request-body decoders of one content coding and
// window limit. A pool, not a decoder per connection, because a server's
// connections far outnumber the requests decoding a body at any time, and
// a decoder keeps its window's memory from one body to the next.
type decoderPool struct {
	coding string // its name, as decode gives it
	window int    // br: the largest window accepted, checked by bodySource; 0: no check
	pool   sync.Pool
}

// pooledDecoder is a decoder of a pool and the reader it reads the body
// through, which stays with it from one body to the next.
type pooledDecoder struct {
	dec  brisk.Decoder
	body bodySource
	buf  *bufio.Reader // nil unless the decoder reads through one
}

// bodySource is the request body as a plain io.Reader, which put
// detaches. It also hides the body's other methods: a zstd decoder
// given a *bytes.Reader decodes it whole into memory on Reset, within
// no limit of BodyReader's. It counts the encoded bytes read, and fails
// reads once they run more than allow ahead (ErrEncodedAhead), and a
// Brotli stream whose first byte declares a window above window
// (ErrWindowTooLarge). It keeps the first error other than io.EOF it
// returned: a decoder may replace it with its own (zstd reports
// io.ErrUnexpectedEOF for a skippable frame cut short), and the body's
// error is the cause.
type bodySource struct {
	r      io.Reader
	n      int64 // encoded bytes read
	allow  int64 // the most n may be before a read (limitedReader.Read sets it)
	window int   // br: the largest window accepted; 0: no check
	err    error // the first error other than io.EOF returned
}

func (s *bodySource) Read(p []byte) (int, error) {
	switch {
	case s.r == nil:
		return 0, io.EOF
	case s.err != nil:
		return 0, s.err
	case s.n > s.allow:
		s.err = ErrEncodedAhead
		return 0, s.err
	}
	if room := s.allow - s.n + 1; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := s.r.Read(p)
	if s.n == 0 && n > 0 && s.window > 0 && brotliWindow(p[0]) > s.window {
		n, err = 0, ErrWindowTooLarge
	}
	s.n += int64(n)
	if err != nil && err != io.EOF {
		s.err = err
	}
	return n, err
}

// cause returns the error a body decoded by d failed with, given the
// decoder's: the body's own, if it had one.
func (d *pooledDecoder) cause(err error) error {
	if err != nil && err != io.EOF && d.body.err != nil {
		return d.body.err
	}
	return err
}

// brotliWindow returns the window size, in bytes, that the first byte of
// a Brotli stream declares (WBITS, RFC 7932 §9.1): (1 << WBITS) - 16. It
// is 0 for the invalid code, left to the decoder to refuse.
func brotliWindow(b byte) int {
	bits := 16
	switch n := b >> 1 & 7; {
	case b&1 == 0:
	case n != 0:
		bits = 17 + int(n)
	case b>>4&7 == 0:
		bits = 17
	case b>>4&7 == 1: // "large window" Brotli, not RFC 7932
		return 0
	default:
		bits = 8 + int(b>>4&7)
	}
	return 1<<bits - 16
}

// src returns the reader d's decoder reads from.
func (d *pooledDecoder) src() io.Reader {
	if d.buf != nil {
		return d.buf
	}
	return &d.body
}

// Largest windows of the formats, in bytes: zstd's for HTTP (RFC 9659 §3,
// decode.MaxZstdWindow), Brotli's (RFC 7932 §9.1, WBITS 24).
const (
	maxZstdWindow   = decode.MaxZstdWindow
	maxBrotliWindow = 1<<24 - 16
	minWindow       = 1 << 10 // the smallest of either format (zstd's; Brotli's is 1 KiB - 16)
)

// decoderPools are the pools of one window limit, one per coding.
type decoderPools [3]*decoderPool

// newDecoderPools returns the pools of decoders that accept windows up to
// window bytes (resolved: positive): gzip's, whose window is at most
// 32 KiB, zstd's and Brotli's. gzip's decoder wraps a reader without
// ReadByte in a new bufio.Reader on each Reset: it gets a pooled one.
func newDecoderPools(window int) *decoderPools {
	zw := uint64(min(window, maxZstdWindow))
	zstdDecoder := brisk.ContentDecoder{Coding: Zstd, New: func() brisk.Decoder {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(zw),
			zstd.WithDecoderLowmem(true))
		if err != nil {
			panic(err) // zw is in the range WithDecoderMaxWindow takes
		}
		return d
	}}
	return &decoderPools{
		newDecoderPool(decode.Gzip(), true, 0),
		newDecoderPool(zstdDecoder, false, 0),
		newDecoderPool(decode.Brotli(), false, min(window, maxBrotliWindow)),
	}
}

// newDecoderPool returns the pool of cd's decoders, each reading
// through a bufio.Reader of its own when buffered.
func newDecoderPool(cd brisk.ContentDecoder, buffered bool, window int) *decoderPool {
	p := &decoderPool{coding: cd.Coding, window: window}
	p.pool.New = func() any {
		d := &pooledDecoder{dec: cd.New()}
		if buffered {
			d.buf = bufio.NewReader(&d.body)
		}
		return d
	}
	return p
}

// forCoding returns the pool for a content coding ("x-gzip" is gzip, RFC
// 9110 §8.4.1.3), nil for one BodyReader does not decode.
func (ps *decoderPools) forCoding(coding []byte) *decoderPool {
	for _, p := range ps {
		if ascii.EqualFold(coding, p.coding) || p.coding == Gzip && ascii.EqualFold(coding, "x-gzip") {
			return p
		}
	}
	return nil
}

// get returns a decoder whose source is body; the caller resets the
// decoder to d.src().
func (p *decoderPool) get(body io.Reader) *pooledDecoder {
	d := p.pool.Get().(*pooledDecoder)
	d.body = bodySource{r: body, allow: MaxEncodedLead, window: p.window}
	if d.buf != nil {
		d.buf.Reset(&d.body)
	}
	return d
}

// put detaches d from its body, which it must not keep alive, and
// returns it to the pool.
func (p *decoderPool) put(d *pooledDecoder) {
	d.body.r = nil
	if d.buf != nil {
		d.buf.Reset(&d.body)
	}
	p.pool.Put(d)
}
