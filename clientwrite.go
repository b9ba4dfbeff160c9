package brisk

import (
	"bytes"

	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// Client-side request construction and encoding (RFC 9112 §3, §6).

// SetURI sets the target of a request to send with Client: an absolute
// "http" or "https" URI (RFC 9110 §4.2), "http://host[:port]/path?query".
// The URI is copied. The client connects to host:port (default port 80
// or 443), sends the path and query as the request-target (origin-form,
// "/" when the path is empty) and the authority as the Host field; a
// SetHost after SetURI replaces the Host field only: the connection still
// goes to the URI's host. The URI is checked when the request is sent
// (ErrInvalidURI), not here.
//
// SetURI reuses the request's storage: calling it for every request on a
// reused Request does not grow memory. A fragment ("#...") is not sent.
//
// The request-target is sent as ASCII: SP, the bytes RFC 3986 leaves out
// of URIs ("<>\^`{|}) and bytes >= 0x80 (such as UTF-8) are sent
// percent-encoded with upper-case hex ("/café" is sent as "/caf%C3%A9"),
// in the path and the query, as for a target set with SetTarget or a
// redirect's Location; "%" and existing escapes are sent as they are. A
// target with a control byte (%x00-1F, DEL) is ErrInvalidRequest.
func (r *Request) SetURI(uri string) {
	r.head.Target = keep(&r.ownTarget, uri)
	r.head.Form = wire.AbsoluteForm
	r.head.Host = nil
	if t, err := parseTarget(r.head.Target); err == nil {
		r.head.Host = keep(&r.ownHost, t.authority)
	}
}

// target is where and what a client request is sent: the parts of the
// request's URI, and the Host field.
type target struct {
	https     bool
	authority []byte      // host[:port]: the URI's authority, which Client dials
	host      []byte      // the Host field sent
	origin    []byte      // absolute-path [ "?" query ], the request-target sent
	forward   *proxyRoute // sent to an HTTP proxy: absolute-form target, Proxy-Authorization
	cookies   []byte      // cookie-string from ClientConfig.Jar, sent in the Cookie field

	acceptEncoding []byte // Accept-Encoding to add unless the request has one (Decoders)
}

// clientTarget returns the target of r: from an absolute URI set by
// SetURI, or from an origin-form target (default "/") and Host set by
// SetTarget and SetHost. The authority (what Client dials) is the URI's,
// else r.Host(), else fallback (HostClient's Addr; nil for Client). The
// Host field is r.Host() when set, else the authority. An empty one is
// ErrInvalidURI.
func (r *Request) clientTarget(fallback []byte) (target, error) {
	t, err := parseTarget(r.head.Target)
	if err != nil {
		return t, err
	}
	t.host = r.head.Host
	switch {
	case len(t.authority) > 0:
		if len(t.host) == 0 {
			t.host = t.authority
		}
	case len(t.host) > 0:
		t.authority = t.host
	default:
		t.authority, t.host = fallback, fallback
	}
	if len(t.host) == 0 {
		return t, ErrInvalidURI
	}
	return t, nil
}

// parseTarget splits an absolute "http"/"https" URI, or takes an
// origin-form target (with no authority).
func parseTarget(uri []byte) (target, error) {
	var t target
	switch {
	case len(uri) == 0:
		t.origin = rootPath
		return t, nil
	case uri[0] == '/':
		t.origin = uri
		return t, nil
	case hasPrefixFold(uri, "http://"):
		uri = uri[7:]
	case hasPrefixFold(uri, "https://"):
		t.https = true
		uri = uri[8:]
	default:
		return t, ErrInvalidURI
	}
	i := 0
	for i < len(uri) && uri[i] != '/' && uri[i] != '?' && uri[i] != '#' {
		if uri[i] == '@' {
			return t, ErrInvalidURI // userinfo is deprecated (RFC 9110 §4.2.4)
		}
		i++
	}
	t.authority, t.origin = uri[:i], uri[i:]
	if j := bytes.IndexByte(t.origin, '#'); j >= 0 {
		t.origin = t.origin[:j]
	}
	switch {
	case i == 0:
		return t, ErrInvalidURI
	case len(t.origin) == 0:
		t.origin = rootPath
	}
	return t, nil
}

// targetAsIs is 1 for each byte sent as it is in a request-target, 0 for
// the others: VCHAR except the ones RFC 3986 §2 leaves out of every URI
// component, "<>\^`{|} (net/http's set for a path); SP, control bytes and
// bytes >= 0x80 are 0. A string constant: no mutable state.
const targetAsIs = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x01\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x01\x00\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x01\x00\x01" +
	"\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x01\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

// appendTarget appends the request-target for origin o (RFC 9112 §3.2.1):
// o, with "/" before a query without a path, and every byte outside
// targetAsIs but a control byte percent-encoded with upper-case hex (RFC
// 3986 §2.1), so that the request line is ASCII; "%" is sent as it is.
// It reports false, having appended part of o, when o holds a control
// byte (%x00-1F, DEL), which no request may carry.
func appendTarget(dst, o []byte) ([]byte, bool) {
	if len(o) > 0 && o[0] == '?' {
		dst = append(dst, '/')
	}
	done := 0
	for i, c := range o {
		if targetAsIs[c] != 0 {
			continue
		}
		if isCTL(c) {
			return dst, false
		}
		dst = append(dst, o[done:i]...)
		dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		done = i + 1
	}
	return append(dst, o[done:]...), true
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && ascii.EqualFold(b[:len(prefix)], prefix)
}

// hasCTL reports whether b holds a control byte (%x00-1F, DEL).
func hasCTL(b []byte) bool {
	for _, c := range b {
		if isCTL(c) {
			return true
		}
	}
	return false
}

// validHostBytes reports whether b, a Host field value, holds no
// whitespace, control byte or DEL (RFC 9112 §3.2).
func validHostBytes(b []byte) bool {
	for _, c := range b {
		if c <= ' ' || c == 0x7f {
			return false
		}
	}
	return true
}

// requestPlan is what appendRequest learned from the request's fields.
type requestPlan struct {
	close  bool // the caller sent "Connection: close"
	expect bool // the caller sent "Expect: 100-continue"
	cookie bool // the caller sent a Cookie field
	coding bool // the caller sent Accept-Encoding or Range
	decode bool // the client added Accept-Encoding: decode the response
}

// appendRequest appends the request head of req for target t, and the
// body when it fits in the free capacity of dst. It reports whether the
// body was appended. A request with an invalid method, target, Host or
// field is ErrInvalidRequest and nothing should be sent.
//
// The head is: the request line with origin-form target, Host, the
// caller's fields in order (except Host, Content-Length and
// Transfer-Encoding, which the client manages), and Content-Length when
// there is a body or the method is POST, PUT or PATCH (RFC 9110 §8.6).
func appendRequest(dst []byte, req *Request, t *target) ([]byte, requestPlan, bool, error) {
	var p requestPlan
	method := req.head.Method
	if len(method) == 0 {
		method = methodGet
	}
	if !validToken(method) || !validHostBytes(t.host) {
		return dst, p, false, ErrInvalidRequest
	}
	dst = append(dst, method...)
	dst = append(dst, ' ')
	if t.forward != nil {
		dst = append(dst, "http://"...) // absolute-form (RFC 9112 §3.2.2)
		dst = append(dst, t.authority...)
	}
	dst, ok := appendTarget(dst, t.origin)
	if !ok {
		return dst, p, false, ErrInvalidRequest
	}
	dst = append(dst, " HTTP/1.1\r\nHost: "...)
	dst = append(dst, t.host...)
	dst = append(dst, "\r\n"...)
	if t.forward != nil && t.forward.auth != nil {
		dst = wire.AppendField(dst, "Proxy-Authorization", t.forward.auth)
	}
	h := &req.Header
	for i := range h.fields {
		f := &h.fields[i]
		if !validToken(f.Name) || !wire.ValidFieldValue(f.Value) {
			return dst, p, false, ErrInvalidRequest
		}
		switch requestSpecial(f.Name) {
		case fOther:
			dst = wire.AppendField(dst, f.Name, f.Value)
		case fConnection:
			p.close = p.close || hasToken(f.Value, "close")
			dst = wire.AppendField(dst, f.Name, f.Value)
		case fExpect:
			p.expect = p.expect || ascii.EqualFold(f.Value, "100-continue")
			dst = wire.AppendField(dst, f.Name, f.Value)
		case fCookie:
			dst = appendCookieField(dst, f, t.cookies, !p.cookie)
			p.cookie = true
		case fCoding:
			p.coding = true
			dst = wire.AppendField(dst, f.Name, f.Value)
		}
	}
	if t.acceptEncoding != nil && !p.coding && string(method) != "HEAD" {
		dst = wire.AppendField(dst, "Accept-Encoding", t.acceptEncoding)
		p.decode = true
	}
	if len(t.cookies) > 0 && !p.cookie { // else merged into the caller's Cookie field
		if !wire.ValidFieldValue(t.cookies) {
			return dst, p, false, ErrInvalidRequest
		}
		dst = wire.AppendField(dst, "Cookie", t.cookies)
	}
	dst = appendFraming(dst, req, method)
	dst = append(dst, "\r\n"...)
	body := req.body
	if req.stream.set || p.expect && req.hasBody() {
		return dst, p, false, nil // see writeWithBody
	}
	if len(body) <= cap(dst)-len(dst) {
		return append(dst, body...), p, true, nil
	}
	return dst, p, false, nil
}

var methodGet = []byte("GET")

// fHost, fExpect and fCookie mark the Host, Expect and Cookie fields
// among the fields the client manages.
const (
	fHost   = -1
	fExpect = -2
	fCookie = -3
	fCoding = -4 // Accept-Encoding or Range
)

// appendCookieField appends the caller's Cookie field f, with the jar's
// cookie-string jar after its value when merge is set, so that one Cookie
// field is sent (RFC 6265 §5.4).
func appendCookieField(dst []byte, f *wire.Field, jar []byte, merge bool) []byte {
	if len(jar) == 0 || !merge || !wire.ValidFieldValue(jar) {
		return wire.AppendField(dst, f.Name, f.Value)
	}
	dst = append(dst, f.Name...)
	dst = append(dst, ": "...)
	dst = append(dst, f.Value...)
	dst = append(dst, "; "...)
	dst = append(dst, jar...)
	return append(dst, "\r\n"...)
}

// requestSpecial classifies the caller's field names the client manages:
// Host, Content-Length and Transfer-Encoding are replaced; Connection is
// sent and noted.
func requestSpecial(name []byte) int {
	switch len(name) {
	case 4:
		if ascii.EqualFold(name, "Host") {
			return fHost
		}
	case 5:
		if ascii.EqualFold(name, "Range") {
			return fCoding
		}
	case 15:
		if ascii.EqualFold(name, "Accept-Encoding") {
			return fCoding
		}
	case 6:
		if ascii.EqualFold(name, "Expect") {
			return fExpect
		}
		if ascii.EqualFold(name, "Cookie") {
			return fCookie
		}
	case 10, 14, 17:
		return special(name)
	}
	return fOther
}

// sendsContentLength reports methods whose requests carry a
// Content-Length even when the body is empty (RFC 9110 §8.6: a user agent
// SHOULD send it when the method defines a meaning for content).
func sendsContentLength(method []byte) bool {
	switch string(method) {
	case "POST", "PUT", "PATCH":
		return true
	}
	return false
}

// idempotent reports the idempotent methods of RFC 9110 §9.2.2, which the
// client retries on a reused connection found closed.
func idempotent(method []byte) bool {
	switch string(method) {
	case "", "GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE":
		return true
	}
	return false
}

// rootPath is the origin-form "/" the client sends for a URI without a
// path. It is only ever read (appended to an encoded request), never
// returned to callers.
var rootPath = []byte("/")
