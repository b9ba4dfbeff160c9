package compress

import "github.com/brisk-http/brisk"

// streamFilter compresses a body streamed through Ctx.BodyWriter: a
// brisk.BodyFilter, pooled per middleware.
type streamFilter struct {
	m    *middleware
	pool *encoderPool // of the chosen coding; nil when not compressing
	enc  encoder
}

// Begin decides, when the handler starts streaming, whether to compress:
// as for a buffered body but whatever its length. A compressed stream
// loses the handler's Content-Length and goes out chunked.
func (f *streamFilter) Begin(c *brisk.Ctx) bool {
	m := f.m
	if string(c.Request.Method()) == "HEAD" || !m.eligible(c) {
		return false
	}
	h := &c.Response.Header
	addVary(h)
	pool := m.choose(c)
	if pool == nil {
		return false
	}
	setEncoded(h, pool.name)
	h.Del("Content-Length")
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
