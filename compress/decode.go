package compress

import (
	"bytes"
	"errors"
	"io"
	"io/fs"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/klauspost/compress/zstd"
)

// DefaultMaxDecoded is the default limit on a decoded request body.
const DefaultMaxDecoded = 16 << 20

var (
	// ErrDecodedTooLarge is returned by a read from a BodyReader past its
	// limit on the decoded size (a decompression bomb); answer 413.
	ErrDecodedTooLarge = errors.New("compress: decoded request body too large")
	// ErrUnsupportedEncoding is returned by BodyReader for a
	// Content-Encoding it does not decode (another coding, or more than
	// one); answer 415 (RFC 9110 §15.5.16).
	ErrUnsupportedEncoding = errors.New("compress: unsupported Content-Encoding")
)

// BodyReader returns the request body of c decoded by its
// Content-Encoding: gzip (or x-gzip), zstd, br, identity or none. At most
// maxDecoded decoded bytes are read; a read past them fails with
// ErrDecodedTooLarge. Zero or negative maxDecoded means
// DefaultMaxDecoded (16 MiB). The encoded body stays bounded by
// Server.MaxBodyBytes. A zstd frame whose window needs more than
// decode.MaxZstdWindow (8 MiB) fails with ErrDecodedTooLarge too. A
// malformed encoding makes reads fail with the decoder's error; for gzip
// BodyReader reads the gzip header itself, so it waits for the first body
// bytes and returns that error (or the body's, such as
// brisk.ErrBodyTooSlow) itself. Status gives the status code for each
// error.
//
// The decoders are those of package decode, which the client uses too,
// kept in a pool from one request to the next: once warm, a call
// allocates only the reader returned. Close puts the decoder back; a
// reader not closed leaves its decoder to the garbage collector. After
// Close, reads fail with fs.ErrClosed. The reader is valid until
// the handler returns.
//
// brisk never decodes a request body by itself: a handler that does not
// call BodyReader sees the bytes as sent.
func BodyReader(c *brisk.Ctx, maxDecoded int64) (io.ReadCloser, error) {
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
	p := bodyDecoderPool(coding)
	if p == nil {
		return nil, ErrUnsupportedEncoding
	}
	d := p.get(body)
	if err := d.dec.Reset(d.src()); err != nil {
		p.put(d)
		return nil, err
	}
	return &limitedReader{r: d.dec, left: maxDecoded, pool: p, dec: d}, nil
}

// limitedReader fails with ErrDecodedTooLarge past its limit.
type limitedReader struct {
	r    io.Reader
	left int64
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
	n, err := l.r.Read(p)
	if int64(n) > l.left || isZstdTooLarge(err) {
		n, err = int(min(int64(n), l.left)), ErrDecodedTooLarge
	}
	l.left -= int64(n)
	if err != nil {
		l.err = err
	}
	return n, err
}

// isZstdTooLarge reports the zstd decoder's refusal of a frame that
// declares a larger size than allowed, or a window past
// decode.MaxZstdWindow (RFC 8878 §3.1.1.1.2's 8 MiB).
func isZstdTooLarge(err error) bool {
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
// with err: 413 for ErrDecodedTooLarge, 415 for ErrUnsupportedEncoding,
// else brisk.ErrorStatus's code for the body's own errors (413 for
// brisk.ErrBodyTooLarge, 408 for brisk.ErrBodyTooSlow or a timeout) and
// 400 for a malformed encoding or body.
func Status(err error) int {
	switch {
	case errors.Is(err, ErrDecodedTooLarge):
		return 413
	case errors.Is(err, ErrUnsupportedEncoding):
		return 415
	}
	return brisk.ErrorStatus(err)
}
