package brisk

import (
	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// Client-side request encoding (RFC 9112 §3, §6): the head of an
// outgoing request, from its Request and target (request_uri.go).

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

// requestTarget returns the request-target to send for t (RFC 9112
// §3.2.1): its origin as it is when no byte needs encoding (the usual
// case: no copy), else the origin encoded by appendTarget into enc[:0],
// which is kept for reuse. It reports false when the origin holds a
// control byte.
func requestTarget(enc *[]byte, t *target) ([]byte, bool) {
	o := t.origin
	i := 0
	for i < len(o) && targetAsIs[o[i]] != 0 {
		i++
	}
	if i == len(o) && (i == 0 || o[0] != '?') {
		return o, true
	}
	b, ok := appendTarget((*enc)[:0], o)
	*enc = b
	return b, ok
}

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
		if ascii.IsCTL(c) {
			return dst, false
		}
		dst = append(dst, o[done:i]...)
		dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		done = i + 1
	}
	return append(dst, o[done:]...), true
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
	decode bool // the client added Accept-Encoding: decode the response
}

// clientManaged are the fields of a request the client writes itself
// rather than copying them from the caller's Header.
var clientManaged = wire.Classes(wire.FieldHost, wire.FieldContentLength, wire.FieldTransferEncoding)

// appendRequest appends the request head of req for target t, and the
// body when it fits in the free capacity of dst. It reports whether the
// body was appended. enc is storage for a request-target that must be
// percent-encoded (requestTarget). A request with an invalid method,
// target, Host or field is ErrInvalidRequest and nothing should be sent.
//
// The head is: the request line with origin-form target (absolute-form
// to an HTTP proxy, with Proxy-Authorization after Host), Host, the
// caller's fields in order (except Host, Content-Length and
// Transfer-Encoding, which the client manages; the jar's cookies joined
// to the Cookie field), Accept-Encoding when the client decodes (see
// ClientConfig.Decoders), and the body's framing (appendFraming).
func appendRequest(dst []byte, enc *[]byte, req *Request, t *target) ([]byte, requestPlan, bool, error) {
	var p requestPlan
	method := req.head.Method
	if len(method) == 0 {
		method = methodGet
	}
	rt, ok := requestTarget(enc, t)
	fields := req.Header.fields
	o := wire.ScanOutgoing(fields)
	if !ok || !validToken(method) || !validHostBytes(t.host) || o.Invalid != nil {
		return dst, p, false, ErrInvalidRequest
	}
	p.close = o.Close
	p.expect = o.Present.Has(wire.FieldExpect) && wire.HasToken(req.Header.Get("Expect"), "100-continue")
	if t.forward != nil {
		rt = absoluteTarget(t, rt) // absolute-form (RFC 9112 §3.2.2)
	}
	dst = wire.AppendRequestLine(dst, method, rt)
	dst = wire.AppendField(dst, "Host", t.host)
	if t.forward != nil && t.forward.auth != nil {
		dst = wire.AppendField(dst, "Proxy-Authorization", t.forward.auth)
	}
	if len(t.cookies) > 0 {
		if !wire.ValidFieldValue(t.cookies) {
			return dst, p, false, ErrInvalidRequest
		}
		dst = appendFieldsWithCookies(dst, fields, t.cookies)
	} else {
		dst = wire.AppendFields(dst, fields, clientManaged)
	}
	if t.acceptEncoding != nil && string(method) != "HEAD" &&
		!req.Header.Has("Accept-Encoding") && !req.Header.Has("Range") {
		dst = wire.AppendField(dst, "Accept-Encoding", t.acceptEncoding)
		p.decode = true
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

// appendFraming appends the framing fields of req's body (RFC 9112 §6):
// Content-Length for a body of known length (always for POST, PUT and
// PATCH), or Transfer-Encoding: chunked and a Trailer field for a stream
// of unknown length.
func appendFraming(dst []byte, req *Request, method []byte) []byte {
	s := &req.stream
	switch {
	case !s.set:
		if len(req.body) > 0 || sendsContentLength(method) {
			dst = wire.AppendContentLength(dst, int64(len(req.body)))
		}
	case s.size >= 0:
		dst = wire.AppendContentLength(dst, s.size)
	default:
		dst = append(dst, "Transfer-Encoding: chunked\r\n"...)
		dst = appendTrailerNames(dst, &req.Trailer)
	}
	return dst
}

// appendTrailerNames appends the Trailer field naming the fields of tr
// (RFC 9110 §6.6.2), when it has any.
func appendTrailerNames(dst []byte, tr *Header) []byte {
	if len(tr.fields) == 0 {
		return dst
	}
	dst = append(dst, "Trailer: "...)
	for i, f := range tr.fields {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = append(dst, f.Name...)
	}
	return append(dst, "\r\n"...)
}
