// Package decode gives a brisk client decoders for the gzip, br and zstd
// content codings (RFC 9110 §8.4.1; RFC 7932; RFC 8878), with
// klauspost/compress and molecule-man/go-brrr:
//
//	c := brisk.Client{ClientConfig: brisk.ClientConfig{Decoders: decode.All()}}
//
// It is a separate package so that programs that do not use it do not
// link these libraries; brisk alone decodes gzip with compress/gzip.
package decode

import (
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	brotli "github.com/molecule-man/go-brrr"

	"github.com/brisk-http/brisk"
)

// All returns decoders for zstd, br and gzip, in that order of
// preference in the Accept-Encoding field the client sends.
func All() []brisk.ContentDecoder {
	return []brisk.ContentDecoder{Zstd(), Brotli(), Gzip()}
}

// Gzip decodes gzip (RFC 1952) with klauspost/compress/gzip, including
// bodies of several gzip members.
func Gzip() brisk.ContentDecoder {
	return brisk.ContentDecoder{Coding: "gzip", New: func() brisk.Decoder { return new(gzip.Reader) }}
}

// Brotli decodes br (RFC 7932) with molecule-man/go-brrr. Bytes after the
// end of the Brotli stream fail the body.
func Brotli() brisk.ContentDecoder {
	return brisk.ContentDecoder{Coding: "br", New: func() brisk.Decoder { return brReader{brotli.NewReader(nil)} }}
}

// brReader is a go-brrr Reader as a brisk.Decoder.
type brReader struct{ *brotli.Reader }

func (r brReader) Reset(src io.Reader) error {
	r.Reader.Reset(src)
	return nil
}

// MaxZstdWindow is the largest zstd window the decoder accepts, in
// bytes: 8 MiB, the limit RFC 8878 §3.1.1.1.2 sets for HTTP. A frame
// asking for more fails (ErrContentEncoding).
const MaxZstdWindow = 8 << 20

// Zstd decodes zstd (RFC 8878) with klauspost/compress/zstd, decoding in
// the reading goroutine (no decoder goroutines) with a window of at most
// MaxZstdWindow.
func Zstd() brisk.ContentDecoder {
	return brisk.ContentDecoder{Coding: "zstd", New: func() brisk.Decoder {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(MaxZstdWindow))
		if err != nil {
			return failed{err}
		}
		return d
	}}
}

// failed is a decoder that could not be created: it fails every body.
type failed struct{ err error }

func (f failed) Read([]byte) (int, error) { return 0, f.err }
func (f failed) Reset(io.Reader) error    { return f.err }
