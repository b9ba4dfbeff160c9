package compress

import (
	"bufio"
	"io"
	"sync"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/decode"
	"github.com/brisk-http/brisk/internal/ascii"
)

// decoderPool pools the request-body decoders of one content coding,
// made by package decode's constructor for it: the decoders, and their
// limits, are those of the client (which keeps one per connection
// instead, for the responses that come on it). A pool, not a decoder
// per connection, because a server's connections far outnumber the
// requests decoding a body at any time, and a zstd decoder can hold a
// window of up to 8 MiB.
type decoderPool struct {
	coding string // its name, as decode gives it
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
// no limit of BodyReader's.
type bodySource struct{ r io.Reader }

func (s *bodySource) Read(p []byte) (int, error) {
	if s.r == nil {
		return 0, io.EOF
	}
	return s.r.Read(p)
}

// src returns the reader d's decoder reads from.
func (d *pooledDecoder) src() io.Reader {
	if d.buf != nil {
		return d.buf
	}
	return &d.body
}

// bodyDecoders are the pools BodyReader takes its decoders from. gzip's
// decoder wraps a reader without ReadByte in a new bufio.Reader on each
// Reset: it gets a pooled one.
var bodyDecoders = [...]*decoderPool{
	newDecoderPool(decode.Gzip(), true),
	newDecoderPool(decode.Zstd(), false),
	newDecoderPool(decode.Brotli(), false),
}

// newDecoderPool returns the pool of cd's decoders, each reading
// through a bufio.Reader of its own when buffered.
func newDecoderPool(cd brisk.ContentDecoder, buffered bool) *decoderPool {
	p := &decoderPool{coding: cd.Coding}
	p.pool.New = func() any {
		d := &pooledDecoder{dec: cd.New()}
		if buffered {
			d.buf = bufio.NewReader(&d.body)
		}
		return d
	}
	return p
}

// bodyDecoderPool returns the pool for a content coding ("x-gzip" is
// gzip, RFC 9110 §8.4.1.3), nil for one BodyReader does not decode.
func bodyDecoderPool(coding []byte) *decoderPool {
	for _, p := range bodyDecoders {
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
	d.body.r = body
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
