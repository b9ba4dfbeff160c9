package compress

import (
	"bytes"
	"errors"
	"io"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/decode"
	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	brotli "github.com/molecule-man/go-brrr"
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
// Server.MaxBodyBytes. A zstd frame whose window needs more than 8 MiB
// fails with ErrDecodedTooLarge too. A malformed encoding makes reads fail with the
// decoder's error; for gzip BodyReader reads the gzip header itself, so
// it waits for the first body bytes and returns that error (or the
// body's, such as brisk.ErrBodyTooSlow) itself. Close releases the decoder; the reader is valid until
// the handler returns. Status gives the status code for each error.
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
	var dec io.Reader
	closeDec := func() {}
	switch {
	case n == 0:
		dec = body
	case n > 1:
		return nil, ErrUnsupportedEncoding
	case ascii.EqualFold(coding, Gzip), ascii.EqualFold(coding, "x-gzip"):
		zr, err := gzip.NewReader(body)
		if err != nil {
			return nil, err
		}
		dec = zr
	case ascii.EqualFold(coding, Zstd):
		zr, err := zstd.NewReader(body, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(decode.MaxZstdWindow), zstd.WithDecoderMaxMemory(uint64(max(maxDecoded+1, decode.MaxZstdWindow))))
		if err != nil {
			return nil, err
		}
		dec, closeDec = zr, zr.Close
	case ascii.EqualFold(coding, Brotli):
		br := brotli.NewReader(body)
		dec, closeDec = br, func() { br.Close() }
	default:
		return nil, ErrUnsupportedEncoding
	}
	return &limitedReader{r: dec, left: maxDecoded, close: closeDec}, nil
}

// limitedReader fails with ErrDecodedTooLarge past its limit.
type limitedReader struct {
	r     io.Reader
	left  int64
	close func()
	err   error
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

// Close releases the decoder.
func (l *limitedReader) Close() error {
	l.close()
	l.close = func() {}
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
