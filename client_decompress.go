package brisk

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/brisk-http/brisk/internal/ascii"
)

// Transparent decoding of response content codings (RFC 9110 §8.4.1).

// Decoder decodes one content coding of response bodies. It is reused
// from one body to the next: Reset starts a new body read from r. A
// *gzip.Reader (compress/gzip or klauspost/compress), a zstd.Decoder or
// a brotli.Reader fits.
type Decoder interface {
	io.Reader
	Reset(r io.Reader) error
}

// ContentDecoder is a content coding the client accepts and decodes.
type ContentDecoder struct {
	// Coding is the content-coding name (RFC 9110 §8.4.1), such as
	// "gzip", "br" or "zstd", compared case-insensitively.
	Coding string

	// New returns a decoder of Coding; it is called once per connection
	// that receives the coding, and the decoder kept with it.
	New func() Decoder
}

// defaultDecoders is gzip with compress/gzip: the decoders used when
// ClientConfig.Decoders is nil. Package decode has faster ones and br and
// zstd.
var defaultDecoders = []ContentDecoder{{Coding: "gzip", New: func() Decoder { return new(gzip.Reader) }}}

// acceptEncoding is the Accept-Encoding field value listing the codings
// of ds, in order.
func acceptEncoding(ds []ContentDecoder) []byte {
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = d.Coding
	}
	return []byte(strings.Join(names, ", "))
}

// decoders returns the decoders hc uses, or nil when it does not decode.
func (c *ClientConfig) decoders() []ContentDecoder {
	switch {
	case c.KeepContentEncoding:
		return nil
	case c.Decoders == nil:
		return defaultDecoders
	}
	return c.Decoders
}

// decoding returns the index in ds of the decoder for resp's
// Content-Encoding: one coding ds has, else -1 (no coding, several, or an
// unknown one: the body is left as received).
func decoding(ds []ContentDecoder, resp *Response) int {
	ce := resp.Header.Get("Content-Encoding")
	if len(ce) == 0 {
		return -1
	}
	for i := range ds {
		if ascii.EqualFold(ce, ds[i].Coding) {
			return i
		}
	}
	return -1
}

// decodeBody decodes the body just read into resp when its
// Content-Encoding is one the client asked for, bounded by
// MaxResponseBodyBytes on the decoded size; it then deletes the
// Content-Encoding and Content-Length fields. A body that does not
// decode is ErrContentEncoding; one that decodes past the limit is
// ErrBodyTooLarge, with resp.Body() empty.
func (cc *clientConn) decodeBody(resp *Response) error {
	return decodeInto(resp, cc.hc.decoders, &cc.decs, &cc.rawBody, cc.hc.lim.maxBody)
}

// decodeInto is decodeBody with the decoders of ds kept in decs (by
// index, created on first use), raw the reader of the encoded body, and
// limit MaxResponseBodyBytes.
func decodeInto(resp *Response, ds []ContentDecoder, decs *[]Decoder, raw *bytes.Reader, limit int64) error {
	i := decoding(ds, resp)
	if i < 0 || len(resp.body) == 0 {
		return nil
	}
	if *decs == nil {
		*decs = make([]Decoder, len(ds))
	}
	if (*decs)[i] == nil {
		(*decs)[i] = ds[i].New()
	}
	d := (*decs)[i]
	raw.Reset(resp.body)
	if err := d.Reset(raw); err != nil {
		resp.body = resp.body[:0]
		return decodeError(ds[i].Coding, err)
	}
	out, err := readDecoded(d, resp.spare[:0], limit)
	resp.spare = resp.body
	resp.body = out
	if err != nil {
		resp.body = resp.body[:0]
		if errors.Is(err, ErrBodyTooLarge) {
			return err
		}
		return decodeError(ds[i].Coding, err)
	}
	resp.Header.Del("Content-Encoding")
	resp.Header.Del("Content-Length")
	return nil
}

// decodeError is the ErrContentEncoding of a body that does not decode.
func decodeError(coding string, err error) error {
	return fmt.Errorf("%w: %s: %w", ErrContentEncoding, coding, err)
}

// decodedLimitError is the ErrBodyTooLarge of a body that decodes past
// limit, MaxResponseBodyBytes.
func decodedLimitError(limit int64) error {
	return fmt.Errorf("%w: decoded response body over MaxResponseBodyBytes (%d bytes); "+
		"raise ClientConfig.MaxResponseBodyBytes (negative: no limit) or set KeepContentEncoding",
		ErrBodyTooLarge, limit)
}

// readDecoded appends what d decodes to dst, up to limit bytes (< 0:
// none); more is ErrBodyTooLarge.
func readDecoded(d io.Reader, dst []byte, limit int64) ([]byte, error) {
	for {
		if len(dst) == cap(dst) {
			dst = growTo(dst, int64(max(2*cap(dst), 4096)), limit)
		}
		n, err := d.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if limit >= 0 && int64(len(dst)) > limit {
			return dst, decodedLimitError(limit)
		}
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}

// streamDecoder decodes the body of a BodyStream as it is read.
type streamDecoder struct {
	dec    Decoder
	coding string
	err    error // sticky: io.EOF at the end, or the error that ended it
}

// rawStream reads a BodyStream's body as received: the decoder's source.
type rawStream struct{ s *BodyStream }

func (r rawStream) Read(p []byte) (int, error) { return r.s.readRaw(p) }

// decodeWith makes s decode its body when its Content-Encoding is one of
// ds (see decoding) and it has a body, and then deletes the
// Content-Encoding and Content-Length fields. The decoder is taken from
// the connection, which goes back to the pool when the raw body ends,
// while the decoder may still hold bytes. Starting the decoder reads the
// coding's header; a bad one is ErrContentEncoding, and the connection
// is closed.
func (s *BodyStream) decodeWith(ds []ContentDecoder) error {
	cc := s.cc
	i := decoding(ds, s.resp)
	if i < 0 || cc != nil && cc.body.Done() && len(cc.decoded) == 0 || s.h2 != nil && s.h2.resp.ContentLength == 0 {
		return nil
	}
	d := ds[i].New()
	if cc != nil && cc.decs != nil && cc.decs[i] != nil {
		d, cc.decs[i] = cc.decs[i], nil
	}
	s.dec = &streamDecoder{dec: d, coding: ds[i].Coding}
	if err := d.Reset(rawStream{s}); err != nil {
		if s.open() {
			s.finish(false)
		}
		return s.decodeFailed(err)
	}
	s.resp.Header.Del("Content-Encoding")
	s.resp.Header.Del("Content-Length")
	return nil
}

// readDecoded reads decoded body bytes into p. When the decoded stream
// ends, the raw body must end too: bytes after it are ErrContentEncoding.
func (s *BodyStream) readDecoded(p []byte) (int, error) {
	if s.dec.err != nil {
		return 0, s.dec.err
	}
	if s.err == errStreamClosed {
		return 0, s.err
	}
	n, err := s.dec.dec.Read(p)
	switch {
	case err == nil:
		return n, nil
	case err == io.EOF && s.open(): // the raw body has not ended yet
		var b [1]byte
		if m, rerr := s.readRaw(b[:]); m > 0 || rerr != io.EOF {
			if s.open() {
				s.finish(false)
			}
			if rerr == nil || rerr == io.EOF {
				rerr = errors.New("bytes after the end of the coded body")
			}
			return n, s.decodeFailed(rerr)
		}
		s.dec.err = io.EOF
	case err == io.EOF:
		s.dec.err = io.EOF
	default:
		if s.open() {
			s.finish(false)
		}
		return n, s.decodeFailed(err)
	}
	return n, s.dec.err
}

// decodeFailed records and returns the error ending a decoded stream:
// the raw body's own error when it broke, else ErrContentEncoding.
func (s *BodyStream) decodeFailed(err error) error {
	if s.err != nil && s.err != io.EOF && s.err != errStreamClosed {
		s.dec.err = s.err
	} else {
		s.dec.err = decodeError(s.dec.coding, err)
	}
	return s.dec.err
}
