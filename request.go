package brisk

import (
	"bytes"
	"io"

	"github.com/brisk-http/brisk/wire"
)

// Request is a received HTTP/1.1 request (or, on the client side, one being
// built). On the server side every slice returned by its methods aliases
// the connection's read buffer and is valid until the handler returns: copy
// it to keep it. On a request built for a client, the slices alias the
// Request's own storage and are valid until its next setter call or
// Reset. The slices must not be modified.
type Request struct {
	// Header is the received field section; Header.Raw returns its bytes.
	Header Header

	// Trailer is the trailer section of a chunked body (RFC 9112 §7.1.2).
	// It is filled once the body has been read to its end. On the server
	// side (HTTP/1.1, and h2/h3 through their bridge) it holds the
	// received trailer fields except those RFC 9110 §6.5.1 rules out of a
	// trailer section, which are dropped without error: the fields
	// net/http's httpguts.ValidTrailerHeader refuses (Authorization,
	// Cache-Control, Connection, Content-Encoding, Content-Length,
	// Content-Range, Content-Type, Expect, Host, Keep-Alive, Max-Forwards,
	// Pragma, Proxy-Authenticate, Proxy-Authorization, Proxy-Connection,
	// Range, Realm, TE, Trailer, Transfer-Encoding, WWW-Authenticate).
	// Trailer fields are never merged into Header.
	Trailer Header

	head wire.RequestHead
	// recv is the body of a received request, set once (newConn): a
	// received Request reaches its connection only through it. It is nil
	// on a Request built for a client (see received).
	recv *bodyReader

	body       []byte // result of Body, or the client-side body
	bodyErr    error
	bodyCalled bool
	stream     bodySource // client side: a body read from an io.Reader (request_stream.go)
	// client side: storage for method, target and host, each reused by its setter
	ownMethod, ownTarget, ownHost []byte

	slash [1]byte // RawPath's "/" for an absolute-form target without a path

	uri   URI    // server side: head.Target split by splitTarget
	path  []byte // result of Path: uri.RawPath or pathBuf
	pbuf  []byte // storage for a decoded path, kept across requests
	forms forms  // query and form arguments, multipart form, cookies

	interim func(code int, h *Header) error // client side: SetInterimHandler
}

// Method returns the method token, e.g. "GET" (RFC 9110 §9). Methods are
// case-sensitive.
func (r *Request) Method() []byte { return r.head.Method }

// Target returns the request-target exactly as received (RFC 9112 §3.2).
func (r *Request) Target() []byte { return r.head.Target }

// Path returns the request path, percent-decoded and normalized by
// DecodePath: it starts with "/", holds no dot-segment and no repeated
// "/", and cannot climb above the root (RFC 3986 §5.2.4, §6.2.2). "/a/%2e%2e/b"
// gives "/b". Escapes of "/", "\", "%" and control characters stay
// encoded ("/a%2Fb" is one segment); see DecodePath. It is "*" in
// asterisk-form and empty in authority-form.
//
// The server computes it once per request, before the handler runs, and
// answers a path that does not decode (ErrPathEscape, ErrPathByte) with 400
// without calling the handler. When the raw path needs no change, Path
// returns RawPath itself; otherwise a buffer of the Request, reused across
// requests. Either way the result is valid until the handler returns and
// must not be modified. Do not decode it again.
//
// Other escapes are decoded: "%3F", "%23" and "%20" give "?", "#" and a
// space, which are data in the path but delimiters in a URL. Re-encode the
// path (url.PathEscape per segment) before building a URL or a redirect
// Location from it.
func (r *Request) Path() []byte {
	if !r.received() { // client side: computed on demand
		r.target()
		r.decodePath()
	}
	return r.path
}

// RawPath returns the path part of the request-target, undecoded: up to
// "?" in origin-form, the path after the authority in absolute-form ("/"
// when absent), "*" in asterisk-form and nil in authority-form.
func (r *Request) RawPath() []byte {
	u := r.target()
	switch {
	case u.Form == wire.AuthorityForm:
		return nil
	case len(u.RawPath) == 0:
		r.slash[0] = '/' // the Request's own storage: callers cannot alter another's
		return r.slash[:]
	}
	return u.RawPath
}

// Query returns the query of the request-target without the "?", or nil
// when the target has no "?". See QueryArgs to read its arguments.
func (r *Request) Query() []byte { return r.target().Query }

// Host returns the host the request is for: on the server side, the
// authority of an absolute-form or authority-form request-target, which
// overrides the Host field (RFC 9112 §3.2.2, §3.3), else the value of the
// Host field, nil when absent (possible in HTTP/1.0 only). On a request
// built for a client, the Host field set by SetHost or SetURI.
func (r *Request) Host() []byte {
	if !r.received() {
		return r.head.Host
	}
	return r.uri.EffectiveHost(r.head.Host)
}

// protoNames holds "HTTP/1.0" to "HTTP/1.9", eight bytes each.
const protoNames = "HTTP/1.0HTTP/1.1HTTP/1.2HTTP/1.3HTTP/1.4HTTP/1.5HTTP/1.6HTTP/1.7HTTP/1.8HTTP/1.9"

// Proto returns the protocol version as received: "HTTP/1.1", "HTTP/1.0",
// or any other "HTTP/1.x" the parser accepted (RFC 9112 §2.3), and
// "HTTP/2.0" for a request that came on HTTP/2 (h2 or h2c, handed over to
// Server.HTTP2, or bridged from net/http by Server.HTTPHandler) and
// "HTTP/3.0" for one that came on HTTP/3 (package h3), as net/http's
// Request.Proto reports them. It does not allocate.
func (r *Request) Proto() string {
	if r.recv != nil && r.recv.c.http2 {
		if r.recv.c.h3 {
			return protoHTTP30
		}
		return protoHTTP20
	}
	m := int(min(r.head.Minor, 9))
	return protoNames[8*m : 8*m+8]
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
	if !r.received() || r.bodyCalled {
		return r.body, r.bodyErr
	}
	r.bodyCalled = true
	r.body, r.bodyErr = r.recv.readAll()
	return r.body, r.bodyErr
}

// BodyReader returns the body as a stream, for large or chunked bodies.
// Reads are bounded by Server.MaxBodyBytes (ErrBodyTooLarge); the first
// read sends "100 Continue" when the client asked for it. The reader is
// valid until the handler returns. After Body it is at EOF. It is also an
// io.WriterTo, which io.Copy uses: it then reads from the connection in
// pieces of up to 64 KiB, whatever the destination.
func (r *Request) BodyReader() io.Reader {
	if !r.received() {
		return bytes.NewReader(r.body)
	}
	return r.recv
}

// Client-side construction, used by brisk's client.

// SetMethod sets the method; it is copied.
func (r *Request) SetMethod(method string) { r.head.Method = copyInto(&r.ownMethod, method) }

// SetTarget sets the request-target (origin-form, e.g. "/a?b", or "*",
// the asterisk-form of a server-wide OPTIONS, RFC 9112 §3.2.4); copied.
func (r *Request) SetTarget(target string) { r.head.Target = copyInto(&r.ownTarget, target) }

// SetHost sets the Host; it is copied. On a client request it sets the
// Host field sent, not where the request goes: that is the authority of
// the URI given to SetURI, or, for an origin-form target (SetTarget), the
// Host itself with Client and Addr with HostClient.
func (r *Request) SetHost(host string) { r.head.Host = copyInto(&r.ownHost, host) }

// SetBody sets the body to a copy of b, replacing a SetBodyStream.
func (r *Request) SetBody(b []byte) { r.body, r.stream = append(r.body[:0], b...), bodySource{} }

// SetBodyString sets the body to a copy of s, replacing a SetBodyStream.
func (r *Request) SetBodyString(s string) {
	r.body, r.stream = append(r.body[:0], s...), bodySource{}
}

// copyInto copies s into *own, reusing its storage, and returns the copy.
// Each settable part has its own storage, so repeated setters on a
// reused Request never grow memory.
func copyInto[B wire.Bytes](own *[]byte, s B) []byte {
	*own = append((*own)[:0], s...)
	return *own
}

// Reset clears the request for reuse, keeping its storage.
func (r *Request) Reset() {
	r.Header.Reset()
	r.Trailer.Reset()
	r.head.Reset(r.head.Fields)
	r.body, r.bodyErr, r.bodyCalled = r.body[:0], nil, false
	r.stream = bodySource{}
	r.uri, r.path = URI{}, nil
	r.forms.reset()
	r.interim = nil
}

// resetReceived prepares r for the head just parsed into r.head.
func (r *Request) resetReceived() {
	r.Header.setReceived(r.head.Fields, r.head.Raw)
	r.Trailer.setReceived(nil, nil)
	r.body, r.bodyErr, r.bodyCalled = nil, nil, false
	r.uri, r.path = URI{}, nil
	r.forms.reset()
}

// splitTarget splits the received request-target and decodes its path,
// once per request, before the handler runs (see Path). Its errors
// (ErrTargetForm, ErrInvalidHost, ErrPathByte, ...) are answered 400.
func (r *Request) splitTarget() error {
	if err := r.uri.Parse(r.head.Method, r.head.Target); err != nil {
		return err
	}
	return r.decodePath()
}

// target returns the split request-target: parsed by splitTarget on the
// server side, split on each call on a request built for a client.
func (r *Request) target() *URI {
	if !r.received() {
		r.uri.Parse(r.head.Method, r.head.Target)
	}
	return &r.uri
}

// decodePath sets r.path to the decoded path of r.uri (see Path):
// uri.RawPath itself when decoding would not change it, else its decoded
// form in r.pbuf.
func (r *Request) decodePath() error {
	u := &r.uri
	if u.Form == wire.OriginForm && cleanPath(u.RawPath) {
		r.path = u.RawPath[:len(u.RawPath):len(u.RawPath)]
		return nil
	}
	p, err := u.AppendPath(r.pbuf[:0])
	r.pbuf, r.path = p, p
	return err
}

// received reports the Request's role: true for a request the server
// received (its slices alias the connection's read buffer, its body is
// read from the connection), false for one built for a client (its
// slices and body are its own storage).
func (r *Request) received() bool { return r.recv != nil }

// isHead reports a HEAD request.
func (r *Request) isHead() bool { return string(r.head.Method) == "HEAD" }
