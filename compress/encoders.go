package compress

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	brotli "github.com/molecule-man/go-brrr"
)

// encoder is what the three encoders have in common: a stream that is
// reset to a new destination for each body.
type encoder interface {
	io.Writer
	Flush() error
	Close() error
	Reset(w io.Writer)
}

// encoderPool pools the encoders of one coding at one level.
type encoderPool struct {
	name string
	pool sync.Pool
}

// newEncoderPool returns the pool for the named coding at its level in
// cfg, checking the level by making the first encoder.
func newEncoderPool(name string, cfg Config) (*encoderPool, error) {
	var newEnc func() (encoder, error)
	switch name {
	case Gzip:
		level := or(cfg.GzipLevel, DefaultGzipLevel)
		if level < 1 || level > 9 {
			return nil, errLevel(name, level)
		}
		newEnc = func() (encoder, error) { return gzip.NewWriterLevel(nil, level) }
	case Zstd:
		level := zstd.EncoderLevelFromZstd(or(cfg.ZstdLevel, DefaultZstdLevel))
		newEnc = func() (encoder, error) {
			return zstd.NewWriter(nil, zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(1),
				zstd.WithWindowSize(1<<20), zstd.WithLowerEncoderMem(true))
		}
	case Brotli:
		level := or(cfg.BrotliLevel, DefaultBrotliLevel)
		if level < 1 || level > 11 {
			return nil, errLevel(name, level)
		}
		newEnc = func() (encoder, error) { return brotli.NewWriter(nil, level) }
	default:
		return nil, fmt.Errorf("compress: unknown coding %q", name)
	}
	first, err := newEnc()
	if err != nil {
		return nil, err
	}
	p := &encoderPool{name: name}
	p.pool.New = func() any {
		e, _ := newEnc() // the level was checked with the first one
		return e
	}
	p.pool.Put(first)
	return p, nil
}

func or(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func (p *encoderPool) get(w io.Writer) encoder {
	e := p.pool.Get().(encoder)
	e.Reset(w)
	return e
}

// put returns e to the pool, detached from its destination.
func (p *encoderPool) put(e encoder) {
	e.Reset(nil)
	p.pool.Put(e)
}

// sizeHinted is an encoder that can be told the size of the body (the
// Brotli one picks its parameters by it).
type sizeHinted interface {
	ResetWithSizeHint(w io.Writer, size uint)
}

// compress appends the encoding of src to dst.
func (p *encoderPool) compress(dst *bytes.Buffer, src []byte) error {
	e := p.pool.Get().(encoder)
	if h, ok := e.(sizeHinted); ok {
		h.ResetWithSizeHint(dst, uint(len(src)))
	} else {
		e.Reset(dst)
	}
	defer p.put(e)
	if _, err := e.Write(src); err != nil {
		return err
	}
	return e.Close()
}

// maxPooledBuffer is the largest output buffer kept for reuse.
const maxPooledBuffer = 1 << 20

// bufferPool pools the buffers compressed bodies are written to.
type bufferPool struct{ pool sync.Pool }

func (p *bufferPool) get() *bytes.Buffer {
	if b, ok := p.pool.Get().(*bytes.Buffer); ok {
		return b
	}
	return new(bytes.Buffer)
}

func (p *bufferPool) put(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuffer {
		return
	}
	b.Reset()
	p.pool.Put(b)
}
