package compress

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"sync"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/klauspost/compress/zstd"
)

// DefaultMaxDecoded is the default limit on a decoded request body.
const DefaultMaxDecoded = 16 << 20

// DefaultMaxWindow is the default of BodyDecoder.MaxWindow, and the window
// limit of BodyReader: 4 MiB, the window Brotli libraries use by default
// (WBITS 22) and zstd's up to level 16 (see BodyDecoder.MaxWindow for the
// encoders that declare more).
const DefaultMaxWindow = 4 << 20

// MaxEncodedLead is how far, in bytes, a request body's encoded bytes may
// run ahead of the decoded bytes read from it (see BodyDecoder): 256 KiB,
// room for the largest zstd block (128 KiB), the decoders' read-ahead and
// the headers of legitimate encoders.
const MaxEncodedLead = 256 << 10

var (
	// ErrDecodedTooLarge is returned by a read from a BodyReader past its
	// limit on the decoded size (a decompression bomb); answer 413.
	ErrDecodedTooLarge = errors.New("compress: decoded request body too large")
	// ErrUnsupportedEncoding is returned by BodyReader for a
	// Content-Encoding it does not decode (another coding, or more than
	// one); answer 415 (RFC 9110 §15.5.16).
	ErrUnsupportedEncoding = errors.New("compress: unsupported Content-Encoding")
	// ErrWindowTooLarge is returned by a read from a BodyReader whose
	// body declares a larger window than BodyDecoder.MaxWindow allows;
	// answer 413. errors.Is(ErrWindowTooLarge, ErrDecodedTooLarge) is
	// true: decoding it would take more memory than allowed.
	ErrWindowTooLarge error = windowError{}
	// ErrEncodedAhead is returned by a read from a BodyReader whose
	// encoded bytes run more than MaxEncodedLead ahead of its decoded
	// bytes (padding that decodes to nothing: zstd skippable frames,
	// empty blocks, Brotli metadata); answer 400.
	ErrEncodedAhead = errors.New("compress: encoded request body runs ahead of its decoded bytes")
)

// windowError is ErrWindowTooLarge: a kind of ErrDecodedTooLarge.
type windowError struct{}

func (windowError) Error() string        { return "compress: request body's window larger than allowed" }
func (windowError) Is(target error) bool { return target == ErrDecodedTooLarge }

// BodyDecoder decodes compressed request bodies within limits on the
// decoded size, the memory and the work a body can take. The zero value
// is ready to use (it is what BodyReader uses); a BodyDecoder is safe for
// concurrent use and must not be copied after its first use. It keeps
// decoders in pools of its own, from one request to the next: share one
// per configuration.
//
// A request's memory in the decoder is bounded by the window its encoding
// declares (the history a decoder must keep: zstd's Window_Size, RFC 8878
// §3.1.1.1.2, or Brotli's WBITS, RFC 7932 §9.1), which MaxWindow caps. A
// decoder holds at most MaxWindow plus 300 KiB (zstd's block buffers,
// Brotli's input buffer and tables), however few bytes the body sent: with
// the default, a body stalled after a few bytes that declare the largest
// window accepted holds about 4.3 MiB until it fails (brisk.ErrBodyTooSlow
// once MinRequestBodyRateGrace has passed, by default). gzip's window is
// 32 KiB. Decoders go back to the pool on Close, keeping their memory for
// the next body until the garbage collector empties the pool.
//
// A body's encoded bytes may run ahead of the decoded bytes read from it
// by at most MaxEncodedLead (256 KiB); past that, reads fail with
// ErrEncodedAhead. Server.MinRequestBodyRate, which counts the encoded
// bytes, so applies to the decoded output too: by time T of waiting past
// the grace period, at least rate × T - 256 KiB decoded bytes. A client
// cannot hold a decoder's window by sending, at the rate, input that
// decodes to nothing.
type BodyDecoder struct {
	// MaxDecoded is the largest decoded body, in bytes; a read past it
	// fails with ErrDecodedTooLarge (413). Zero or negative means
	// DefaultMaxDecoded (16 MiB). The encoded body stays bounded by
	// Server.MaxBodyBytes.
	MaxDecoded int64

	// MaxWindow is the largest window, in bytes, a zstd frame or a Brotli
	// stream may declare; a body declaring a larger one fails, on its
	// first read, with ErrWindowTooLarge (413: the body is well formed,
	// but decoding it needs more memory than the server gives a request).
	// Zero means DefaultMaxWindow (4 MiB). Negative means the largest
	// each format allows: 8 MiB for zstd (RFC 9659, which asks HTTP
	// decoders to accept it) and 16 MiB for Brotli. Values below 1 KiB
	// mean 1 KiB; above a format's largest, the largest. Encoders declare
	// their window whatever the body's size unless they know the size
	// (a single-segment zstd frame declares the body's length):
	// klauspost/compress's zstd encoder declares 8 MiB for a body of
	// more than one block (128 KiB) unless set otherwise, which the
	// default refuses; zstd's command-line tool declares at most 2 MiB at
	// its default level (3), but 8 MiB from level 17 for an input of
	// unknown size (standard input). Brotli libraries declare 4 MiB (WBITS
	// 22) by default, but the brotli command-line tool (1.0.9) fits the
	// window to the file, up to 16 MiB (WBITS 24), and takes 16 MiB for
	// standard input: at its defaults, any input over 4 MiB, or piped,
	// is refused.
	MaxWindow int

	once  sync.Once
	pools *decoderPools
}

// defaultDecoder is BodyReader's.
var defaultDecoder BodyDecoder

// Reader returns the request body of c decoded by its Content-Encoding:
// gzip (or x-gzip), zstd, br, identity or none, within d's limits (see
// BodyDecoder). A malformed encoding makes reads fail with the decoder's
// error; for gzip Reader reads the gzip header itself, so it waits for
// the first body bytes and returns that error (or the body's, such as
// brisk.ErrBodyTooSlow) itself. Status gives the status code for each
// error.
//
// Once warm, a call allocates only the reader returned. Close puts the
// decoder back in d's pool; a reader not closed leaves its decoder to the
// garbage collector. After Close, reads fail with fs.ErrClosed. The
// reader is valid until the handler returns.
//
// brisk never decodes a request body by itself: a handler that does not
// call Reader or BodyReader sees the bytes as sent.
func (d *BodyDecoder) Reader(c *brisk.Ctx) (io.ReadCloser, error) {
	return d.reader(c, d.MaxDecoded)
}

// BodyReader is Reader of a zero BodyDecoder but for the limit on the
// decoded size: at most maxDecoded decoded bytes are read; a read past
// them fails with ErrDecodedTooLarge. Zero or negative maxDecoded means
// DefaultMaxDecoded (16 MiB). A zstd frame or Brotli stream declaring a
// window above DefaultMaxWindow (4 MiB) fails with ErrWindowTooLarge; use
// a BodyDecoder to choose another limit.
func BodyReader(c *brisk.Ctx, maxDecoded int64) (io.ReadCloser, error) {
	return defaultDecoder.reader(c, maxDecoded)
}

// reader is Reader with the decoded size limit maxDecoded.
func (d *BodyDecoder) reader(c *brisk.Ctx, maxDecoded int64) (io.ReadCloser, error) {
	if maxDecoded <= 0 {
		maxDecoded = DefaultMaxDecoded
	}
	body := c.Request.BodyReader()
	n, coding := 0, []byte(nil)
	for v := range c.Request.Header.Values("Content-Encoding") {
		for elem := range bytes.SplitSeq(v, []byte(",")) {
			if e := bytes.TrimSpace(elem); len(e) > 0 && !ascii.EqualFold(e, "identity") {
				n, coding = n+1, e
			}
		}
	}
	switch {
	case n == 0:
		return &limitedReader{r: body, left: maxDecoded}, nil
	case n > 1:
		return nil, ErrUnsupportedEncoding
	}
	d.once.Do(func() { d.pools = newDecoderPools(d.window()) })
	p := d.pools.forCoding(coding)
	if p == nil {
		return nil, ErrUnsupportedEncoding
	}
	pd := p.get(body)
	if err := pd.dec.Reset(pd.src()); err != nil {
		err = pd.cause(err)
		p.put(pd)
		return nil, err
	}
	return &limitedReader{r: pd.dec, left: maxDecoded, pool: p, dec: pd}, nil
}

// window resolves MaxWindow: the window limit of every format, which
// newDecoderPools caps at each format's largest.
func (d *BodyDecoder) window() int {
	switch w := d.MaxWindow; {
	case w == 0:
		return DefaultMaxWindow
	case w < 0:
		return max(maxZstdWindow, maxBrotliWindow)
	default:
		return max(w, minWindow)
	}
}

// limitedReader fails with ErrDecodedTooLarge past its limit.
type limitedReader struct {
	r    io.Reader
	left int64
	read int64 // decoded bytes returned
	err  error
	pool *decoderPool // of dec; nil for an identity body
	dec  *pooledDecoder
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	if l.dec != nil {
		l.dec.body.allow = l.read + MaxEncodedLead
	}
	n, err := l.r.Read(p)
	if l.dec != nil {
		err = l.dec.cause(err)
	}
	switch {
	case int64(n) > l.left:
		n, err = int(l.left), ErrDecodedTooLarge
	case isZstdWindowTooLarge(err):
		err = ErrWindowTooLarge
	}
	l.left -= int64(n)
	l.read += int64(n)
	if err != nil {
		l.err = err
	}
	return n, err
}

// isZstdWindowTooLarge reports the zstd decoder's refusal of a frame whose
// window is larger than allowed: declared (ErrWindowSizeExceeded) or, for
// a single-segment frame, its content size (ErrDecoderSizeExceeded).
func isZstdWindowTooLarge(err error) bool {
	return errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded)
}

// Close puts the decoder back in its pool; later reads fail with
// fs.ErrClosed.
func (l *limitedReader) Close() error {
	if l.dec != nil {
		l.pool.put(l.dec)
		l.dec, l.r = nil, nil
	}
	l.err = fs.ErrClosed
	return nil
}

// Status returns the status code answering a request whose body failed
// with err: 413 for ErrDecodedTooLarge and ErrWindowTooLarge, 415 for
// ErrUnsupportedEncoding, 400 for ErrEncodedAhead, else
// brisk.ErrorStatus's code for the body's own errors (413 for
// brisk.ErrBodyTooLarge, 408 for brisk.ErrBodyTooSlow or a timeout) and
// 400 for a malformed encoding or body.
func Status(err error) int {
	switch {
	case errors.Is(err, ErrDecodedTooLarge):
		return 413
	case errors.Is(err, ErrUnsupportedEncoding):
		return 415
	case errors.Is(err, ErrEncodedAhead):
		return 400
	}
	return brisk.ErrorStatus(err)
}
