package wire

// BodyDecoder delimits one message body in a stream of input (RFC 9112
// §6.3): exactly ContentLength bytes, the chunked transfer coding (with
// its trailer section), or everything up to the end of the input. It does
// no I/O: the caller gives it the bytes it has read and learns from it how
// many are body data, how many belong to the body's framing, and where the
// next message starts. Every role that reads HTTP/1.1 bodies (a server
// reading request bodies, a client or load generator reading response
// bodies) drives this one type.
//
// The zero value decodes an empty body (FramingNone). A BodyDecoder is not
// safe for concurrent use.
type BodyDecoder struct {
	// Chunked decodes FramingChunked bodies. Its limits and Trailers
	// storage are the caller's to set; Reset keeps them.
	Chunked ChunkedDecoder

	// MaxBytes bounds the body data (after chunked decoding). Zero or
	// negative means no limit. Data beyond it is ErrBodyTooLarge (413),
	// reported before any byte past the limit is delivered for a
	// Content-Length body, and by the Decode call that decodes it for a
	// chunked or close-delimited one.
	MaxBytes int64

	framing   Framing
	remaining int64 // FramingLength: body bytes still to come
	total     int64 // body data bytes decoded since Reset
}

// Reset prepares d for the body of a message with framing f; for
// FramingLength, length is the Content-Length. A FramingLength body whose
// length exceeds MaxBytes fails at once: the first Decode returns
// ErrBodyTooLarge.
func (d *BodyDecoder) Reset(f Framing, length int64) {
	d.framing, d.remaining, d.total = f, 0, 0
	switch f {
	case FramingLength:
		d.remaining = length
	case FramingChunked:
		d.Chunked.Reset()
	}
}

// Framing returns the framing given to the last Reset.
func (d *BodyDecoder) Framing() Framing { return d.framing }

// Decode takes the next input bytes src. It returns n, the number of body
// data bytes now in src[:n], and consumed, the number of bytes of src that
// belong to this body (data and framing), n <= consumed. For a chunked
// body the data is moved to the front of src in place; for the other
// framings src[:n] is the input itself and n == consumed.
//
// Decode never returns ErrNeedMore. A nil error with Done false means the
// body continues: deliver src[:n], then call again with src[consumed:]
// followed by more input (for a chunked body the next src must begin with
// the kept bytes; see ChunkedDecoder.Decode). When Done is true,
// src[consumed:] is the start of the next message, untouched.
//
// Errors are the chunked decoder's (*Error, see ChunkedDecoder.Decode) or
// ErrBodyTooLarge; the decoder stays failed for chunked bodies.
func (d *BodyDecoder) Decode(src []byte) (n, consumed int, err error) {
	switch d.framing {
	case FramingLength:
		if d.tooLarge(d.total + d.remaining) {
			return 0, 0, fail(ErrBodyTooLarge, 0)
		}
		n = len(src)
		if int64(n) > d.remaining {
			n = int(d.remaining)
		}
		d.remaining -= int64(n)
		d.total += int64(n)
		return n, n, nil
	case FramingChunked:
		n, consumed, err = d.Chunked.Decode(src)
	case FramingClose:
		n, consumed = len(src), len(src)
	default:
		return 0, 0, nil
	}
	d.total += int64(n)
	if err == nil && d.tooLarge(d.total) {
		err = fail(ErrBodyTooLarge, int(d.total))
	}
	return n, consumed, err
}

// Direct returns how many of the next input bytes, at most max, are
// certainly body data, so that the caller may read them straight into its
// destination instead of through a buffer, and then pass them to Decode.
// It is 0 when the body is done or when its framing needs the input
// buffered (chunked).
func (d *BodyDecoder) Direct(max int) int {
	switch d.framing {
	case FramingLength:
		if int64(max) > d.remaining {
			return int(d.remaining)
		}
		return max
	case FramingClose:
		return max
	}
	return 0
}

// Done reports whether the whole body has been decoded: always for
// FramingNone, never for FramingClose (its end is the end of the input:
// see EndOK).
func (d *BodyDecoder) Done() bool {
	switch d.framing {
	case FramingLength:
		return d.remaining == 0
	case FramingChunked:
		return d.Chunked.Done()
	case FramingClose:
		return false
	}
	return true
}

// EndOK reports whether the end of the input at this point completes the
// body: true for a close-delimited body or a body that is Done. When it is
// false the body was cut short (RFC 9112 §8: an incomplete message).
func (d *BodyDecoder) EndOK() bool { return d.framing == FramingClose || d.Done() }

// Remaining returns the body bytes still expected for FramingLength, and
// -1 for the other framings, whose remaining size is not known.
func (d *BodyDecoder) Remaining() int64 {
	if d.framing == FramingLength {
		return d.remaining
	}
	return -1
}

// Total returns the body data bytes decoded since Reset.
func (d *BodyDecoder) Total() int64 { return d.total }

func (d *BodyDecoder) tooLarge(n int64) bool { return d.MaxBytes > 0 && n > d.MaxBytes }
