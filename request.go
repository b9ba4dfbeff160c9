package brisk

import (
	"bytes"
	"io"

	"github.com/brisk-http/brisk/wire"
)

// Request is a received HTTP/1.1 request (or, on the client side, one being
// built). Every slice returned by its methods aliases the connection's read
// buffer and is valid until the handler returns: copy it to keep it. The
// slices must not be modified.
type Request struct {
	// Header is the received field section; Header.Raw returns its bytes.
	Header Header

	// Trailer is the trailer section of a chunked body (RFC 9112 §7.1.2).
	// It is filled once the body has been read to its end.
	Trailer Header

	head wire.RequestHead
	c    *conn // nil for a request built by a client

	body       []byte // result of Body, or the client-side body
	bodyErr    error
	bodyCalled bool
	own        []byte // client side: storage for method, target, host
}

// Method returns the method token, e.g. "GET" (RFC 9110 §9). Methods are
// case-sensitive.
func (r *Request) Method() []byte { return r.head.Method }

// Target returns the request-target exactly as received (RFC 9112 §3.2).
func (r *Request) Target() []byte { return r.head.Target }

// Path returns the path of the request-target.
//
// Hook: it returns RawPath, undecoded, until uri.go provides the decoding
// and normalisation (percent-decoding of unreserved characters, removal of
// dot segments, RFC 3986 §6.2.2); Path will then apply it once per request.
func (r *Request) Path() []byte { return r.RawPath() }

// RawPath returns the path part of the request-target, undecoded: up to
// "?" in origin-form, the path after the authority in absolute-form ("/"
// when absent), "*" in asterisk-form and nil in authority-form.
func (r *Request) RawPath() []byte {
	t := r.head.Target
	switch r.head.Form {
	case wire.AuthorityForm:
		return nil
	case wire.AbsoluteForm:
		t = afterAuthority(t)
		if len(t) == 0 || t[0] == '?' {
			return slash
		}
	}
	if i := bytes.IndexByte(t, '?'); i >= 0 {
		return t[:i]
	}
	return t
}

var slash = []byte("/")

// afterAuthority returns what follows "scheme://authority" in an
// absolute-URI.
func afterAuthority(t []byte) []byte {
	i := bytes.Index(t, []byte("://"))
	if i < 0 {
		return t
	}
	t = t[i+3:]
	if j := bytes.IndexAny(t, "/?"); j >= 0 {
		return t[j:]
	}
	return nil
}

// Query returns the query of the request-target without the "?", or nil.
func (r *Request) Query() []byte {
	t := r.head.Target
	if i := bytes.IndexByte(t, '?'); i >= 0 && r.head.Form != wire.AuthorityForm {
		return t[i+1:]
	}
	return nil
}

// Host returns the value of the Host field, or nil when absent (possible
// in HTTP/1.0 only).
func (r *Request) Host() []byte { return r.head.Host }

// Proto returns the protocol version, "HTTP/1.1" or "HTTP/1.0".
func (r *Request) Proto() string {
	if r.head.Minor == 0 {
		return "HTTP/1.0"
	}
	return "HTTP/1.1"
}

// ContentLength returns the length of the body in bytes: the
// Content-Length, 0 when the request has no body, or -1 when it is
// unknown (chunked).
func (r *Request) ContentLength() int64 {
	switch r.head.Framing() {
	case wire.FramingLength:
		return r.head.ContentLength
	case wire.FramingChunked:
		return -1
	}
	return 0
}

// Body reads and returns the whole body. It is bounded by
// Server.MaxBodyBytes (ErrBodyTooLarge). For "Expect: 100-continue" it
// first sends "100 Continue". The result is valid until the handler
// returns; later calls return the same result. Body and BodyReader consume
// the same stream: use one of them.
func (r *Request) Body() ([]byte, error) {
	if r.c == nil || r.bodyCalled {
		return r.body, r.bodyErr
	}
	r.bodyCalled = true
	r.body, r.bodyErr = r.c.body.readAll()
	return r.body, r.bodyErr
}

// BodyReader returns the body as a stream, for large or chunked bodies.
// Reads are bounded by Server.MaxBodyBytes (ErrBodyTooLarge); the first
// read sends "100 Continue" when the client asked for it. The reader is
// valid until the handler returns. After Body it is at EOF.
func (r *Request) BodyReader() io.Reader {
	if r.c == nil {
		return bytes.NewReader(r.body)
	}
	return &r.c.body
}

// Client-side construction, used by brisk's client.

// SetMethod sets the method; it is copied.
func (r *Request) SetMethod(method string) { r.head.Method = r.keep(method) }

// SetTarget sets the request-target (origin-form, e.g. "/a?b"); copied.
func (r *Request) SetTarget(target string) { r.head.Target = r.keep(target) }

// SetHost sets the Host; it is copied.
func (r *Request) SetHost(host string) { r.head.Host = r.keep(host) }

// SetBody sets the body to a copy of b.
func (r *Request) SetBody(b []byte) { r.body = append(r.body[:0], b...) }

// SetBodyString sets the body to a copy of s.
func (r *Request) SetBodyString(s string) { r.body = append(r.body[:0], s...) }

// keep copies s into the request's own storage.
func (r *Request) keep(s string) []byte {
	start := len(r.own)
	r.own = append(r.own, s...)
	return r.own[start:len(r.own):len(r.own)]
}

// Reset clears the request for reuse, keeping its storage.
func (r *Request) Reset() {
	r.Header.Reset()
	r.Trailer.Reset()
	r.head.Reset(r.head.Fields)
	r.body, r.bodyErr, r.bodyCalled = r.body[:0], nil, false
	r.own = r.own[:0]
}

// resetReceived prepares r for the head just parsed into r.head.
func (r *Request) resetReceived() {
	r.Header.setReceived(r.head.Fields, r.head.Raw)
	r.Trailer.setReceived(nil, nil)
	r.body, r.bodyErr, r.bodyCalled = nil, nil, false
}

// isHead reports a HEAD request.
func (r *Request) isHead() bool { return string(r.head.Method) == "HEAD" }
