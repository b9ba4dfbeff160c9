package brisk

import "crypto/tls"

// Response is the response a handler builds. The server encodes it after
// the handler returns, unless the handler streams it with Ctx.BodyWriter.
//
// The status code defaults to 200 and the reason phrase to the one
// registered for the code. Framing, Date, Server and Connection are set by
// the server. A Transfer-Encoding field set by the handler is dropped. A
// Content-Length field set by the handler is replaced, for a buffered
// body, by the body's length (except on a response to HEAD with an empty
// body, where it is kept); for a body streamed with Ctx.BodyWriter it is
// the framing, and exactly that many bytes must be written (see
// Ctx.BodyWriter). A Date or Server field set by the handler replaces the
// server's, and a Connection field containing "close" closes the
// connection (other Connection fields are dropped).
//
// Field names must be tokens and values must not contain CR, LF or other
// CTLs (RFC 9110 §5): a response with an invalid field, reason phrase or
// status code is replaced by a 500 and the problem is logged, so a handler
// cannot split a response.
//
// Responses to HEAD carry no body (RFC 9110 §9.3.2) but the Content-Length
// a buffered body would have (error responses included), unless
// SetLengthUnknown was called; a streamed response to HEAD carries a
// Content-Length only when the handler set one. 204 and 304 responses
// carry neither (RFC 9110 §6.4.1).
//
// On the client side, a Response passed to Client or HostClient (Do,
// DoTimeout, DoDeadline, DoContext, DoStream) is reset when the call
// starts and holds what was received: StatusCode is 0 until a response
// head arrives, so after a call that failed before the head (dial error,
// timeout, connection closed, malformed head) it is 0; after a failure
// later (a broken body), it is the status code received.
type Response struct {
	// Header holds the response fields, in the order they are sent.
	Header Header

	// Trailer holds trailer fields, sent after a streamed (chunked) body
	// only (RFC 9112 §7.1.2); ignored otherwise. On the server side the
	// fields RFC 9110 §6.5.1 rules out of a trailer section are removed
	// from Trailer and not sent, as net/http does: the names listed on
	// Request.Trailer (Content-Length, Transfer-Encoding, Content-Type,
	// ...). The other fields are sent; on h2 and h3 too.
	Trailer Header

	status int // 0: not set (200); awaitingHead: received, no head yet
	reason []byte
	body   []byte
	spare  []byte      // client side: the other buffer of a decoded body
	stream *BodyWriter // server side: the Ctx's writer, for Write after it started

	lengthUnknown bool // server side: SetLengthUnknown was called

	tls   *tls.ConnectionState // client side: of the connection it came on
	proto string               // client side: the protocol it came in (Proto)
}

// maxKeptBody is the largest body buffer a pooled Response keeps for the
// next request; larger ones are released.
const maxKeptBody = 64 << 10

// awaitingHead is the status of a Response that a Client or HostClient
// call receives into before its head has arrived: StatusCode reports 0.
const awaitingHead = -1

// StatusCode returns the status code, 200 unless set. On the client side
// it is the status code received, 0 when no response head was received.
func (r *Response) StatusCode() int {
	switch r.status {
	case 0:
		return 200
	case awaitingHead:
		return 0
	}
	return r.status
}

// SetStatusCode sets the status code of the final response, 200..599 (RFC
// 9110 §15); the server replaces a response with any other code, 1xx
// included, by a 500 (see Response): interim responses are sent with
// Ctx.SendInterim ("100 Continue" is sent by Request.Body and BodyReader
// when the client asked for it). It has no effect once a streamed body
// has started.
func (r *Response) SetStatusCode(code int) { r.status = code }

// SetReason sets the reason phrase (RFC 9112 §4); empty means the one
// registered for the status code. It is copied.
func (r *Response) SetReason(reason string) { r.reason = append(r.reason[:0], reason...) }

// SetLengthUnknown makes a response to HEAD go without Content-Length,
// whatever its buffered body or Content-Length field: for when the length
// of the content a GET would get is not known without producing it, such
// as a body the GET would compress (RFC 9110 §9.3.2 and §8.6 allow
// omitting it). It has no effect on responses to other methods, nor once
// a streamed body has started; Reset undoes it.
func (r *Response) SetLengthUnknown() { r.lengthUnknown = true }

// SetBody sets the body to a copy of b.
func (r *Response) SetBody(b []byte) { r.body = append(r.body[:0], b...) }

// SetBodyString sets the body to a copy of s.
func (r *Response) SetBodyString(s string) { r.body = append(r.body[:0], s...) }

// Write appends p to the body. Once Ctx.BodyWriter has started streaming,
// it writes to the stream instead. It never fails before streaming.
func (r *Response) Write(p []byte) (int, error) {
	if r.stream != nil && r.stream.started {
		return r.stream.Write(p)
	}
	r.body = append(r.body, p...)
	return len(p), nil
}

// WriteString is Write for a string.
func (r *Response) WriteString(s string) (int, error) {
	if r.stream != nil && r.stream.started {
		return r.stream.WriteString(s)
	}
	r.body = append(r.body, s...)
	return len(s), nil
}

// Body returns the buffered body (on the client side: the received body).
// It aliases the Response's storage: valid until the Response is reset or
// reused (for a Ctx's Response, until the handler returns), and must not
// be modified.
func (r *Response) Body() []byte { return r.body }

// Reset clears the response for reuse, keeping its storage.
func (r *Response) Reset() {
	r.Header.Reset()
	r.Trailer.Reset()
	r.status = 0
	r.lengthUnknown = false
	r.reason = r.reason[:0]
	r.body = r.body[:0]
	if cap(r.body) > maxKeptBody {
		r.body = nil
	}
	if cap(r.spare) > maxKeptBody {
		r.spare = nil
	}
}

// setError replaces the response with a short plain-text error: the
// reason phrase of code, never any client byte.
func (r *Response) setError(code int) {
	r.Reset()
	r.status = code
	r.Header.Set("Content-Type", "text/plain; charset=utf-8")
	r.body = appendErrorBody(r.body, code)
}

// TLS returns, on the client side, the state of the TLS connection the
// response came on: version, cipher suite, the server's certificates
// (PeerCertificates) and the chains they were verified against
// (VerifiedChains, empty with InsecureSkipVerify). It is nil for an
// "http" request, before a response head was received, and on the server
// side. The state is shared by the responses of one connection: read it,
// do not modify it; it may be kept after the Response is reused.
func (r *Response) TLS() *tls.ConnectionState { return r.tls }
