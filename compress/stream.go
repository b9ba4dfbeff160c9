package compress

import "github.com/brisk-http/brisk"

// streamFilter compresses a body streamed through Ctx.BodyWriter: a
// brisk.BodyFilter, pooled per middleware, one per response in flight.
type streamFilter struct {
	m    *middleware
	pool *encoderPool // of the chosen coding; nil when not compressing
	enc  encoder
	tag  []byte // scratch for the response's weak ETag (setWeakETag)
}

// Begin decides, when the handler starts streaming, whether to encode
// (see negotiate), the size being the declared Content-Length or
// unknown. An encoded stream loses that Content-Length and goes out
// chunked. A HEAD gets the fields but no encoder: its body is discarded.
func (f *streamFilter) Begin(c *brisk.Ctx) bool {
	pool := f.m.negotiate(c, declaredLength(&c.Response.Header))
	if pool == nil {
		return false
	}
	if isHead(c) {
		encodeHead(c, pool.name, &f.tag)
		return false
	}
	setEncoded(&c.Response.Header, pool.name, &f.tag)
	f.pool, f.enc = pool, pool.get(c.BodyWriter().Unfiltered())
	return true
}

func (f *streamFilter) Write(p []byte) (int, error) { return f.enc.Write(p) }

// Flush emits what the encoder holds as a block a decoder can read to
// its end (a sync flush).
func (f *streamFilter) Flush() error { return f.enc.Flush() }

// end writes the end of the compressed stream, if one was begun, and
// returns the encoder to its pool.
func (f *streamFilter) end() {
	if f.enc == nil {
		return
	}
	f.enc.Close()
	f.pool.put(f.enc)
	f.pool, f.enc = nil, nil
}
