package wire

// Default limits used when a Parser field is zero.
const (
	DefaultMaxRequestLineBytes = 8 << 10  // 8 KiB
	DefaultMaxHeaderBytes      = 64 << 10 // 64 KiB
)

// Parser holds the limits and leniencies for parsing heads. The zero value
// is strict with default limits. A Parser is read-only while parsing and
// may be shared by goroutines.
type Parser struct {
	// MaxRequestLineBytes is the largest request line, in bytes, excluding
	// its CRLF. Zero means DefaultMaxRequestLineBytes (8 KiB); negative
	// means no limit beyond MaxHeaderBytes. A longer line is
	// ErrRequestLineTooLong (414).
	MaxRequestLineBytes int

	// MaxHeaderBytes is the largest head, in bytes: start line, field
	// section and the final CRLF. Zero means DefaultMaxHeaderBytes (64 KiB);
	// negative means no limit. A larger head is ErrHeaderTooLarge (431).
	MaxHeaderBytes int

	// AllowBareLF accepts a lone LF as a line ending (RFC 9112 §2.2 MAY).
	// Off by default: a bare LF is ErrLineEnding.
	AllowBareLF bool

	// noLookAhead turns the fast paths off; benchmarks use it to measure
	// what a miss costs.
	noLookAhead bool
}

// ParseRequest parses a request head at the start of buf into h, which
// must have been Reset before the first call for this head.
//
// It returns the length of the head (request line, field section and
// final CRLF) when complete; ErrNeedMore when buf ends first; or an error
// whose Kind says why the head is invalid. After ErrNeedMore, call again
// with the same bytes extended by more input: the parse resumes where it
// stopped, so total work is linear in the head size however it arrives.
// When complete, framing fields (ContentLength, Chunked, ...) are validated
// per RFC 9112 §6.1 and §6.3 and Host per §3.2.
func (p *Parser) ParseRequest(buf []byte, h *RequestHead) (int, error) {
	panic("wire: ParseRequest not implemented yet")
}

// ParseResponse is ParseRequest for a response head (status line and field
// section), used by the client.
func (p *Parser) ParseResponse(buf []byte, h *ResponseHead) (int, error) {
	panic("wire: ParseResponse not implemented yet")
}

// Framing returns how the body of the request with head h is delimited:
// FramingChunked, FramingLength (with h.ContentLength) or FramingNone
// (RFC 9112 §6.3 rules 4-7).
func (h *RequestHead) Framing() Framing {
	switch {
	case h.Chunked:
		return FramingChunked
	case h.ContentLength >= 0:
		return FramingLength
	}
	return FramingNone
}

// KeepAlive reports whether the connection may stay open after this
// request: HTTP/1.1 unless "Connection: close"; HTTP/1.0 only with
// "Connection: keep-alive" (RFC 9112 §9.3).
func (h *RequestHead) KeepAlive() bool {
	if h.ConnectionClose {
		return false
	}
	return h.Minor >= 1 || h.ConnectionKeepAlive
}

// Framing returns how the body of the response with head h is delimited.
// headRequest reports that it answers a HEAD request. 1xx, 204 and 304
// responses and responses to HEAD have no body (RFC 9112 §6.3 rules 1-7).
func (h *ResponseHead) Framing(headRequest bool) Framing {
	switch {
	case headRequest, h.StatusCode < 200, h.StatusCode == 204, h.StatusCode == 304:
		return FramingNone
	case h.Chunked:
		return FramingChunked
	case h.ContentLength >= 0:
		return FramingLength
	}
	return FramingClose
}
