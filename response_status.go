package brisk

import "github.com/brisk-http/brisk/wire"

// The status of a Response: the reason phrase, and how a received
// response (Client, HostClient) takes its status line and fields from the
// parsed head. The status code and the outgoing setters are in
// response.go.

// resetReceived resets r to receive a response: until a head arrives
// (setReceivedHead) its StatusCode is 0, not the default 200.
func (r *Response) resetReceived() {
	r.Reset()
	r.status = awaitingHead
	r.tls = nil
	r.proto = ""
}

// setReceivedHead makes r the response of head h: status code, reason
// phrase and fields are copied, so r does not alias the connection.
func (r *Response) setReceivedHead(h *wire.ResponseHead) {
	r.status = h.StatusCode
	m := int(min(h.Minor, 9))
	r.proto = protoNames[8*m : 8*m+8]
	r.reason = append(r.reason[:0], h.Reason...)
	r.Header.copyReceived(h.Fields, h.Raw)
}

// Reason returns the reason phrase (RFC 9112 §4). On a received response
// (Client, HostClient) it is the one received, possibly empty (always
// on HTTP/2, which has none: RFC 9113 §8.3.2); on an
// outgoing one (a handler's) it is the one set with SetReason, empty when
// the phrase registered for the status code is to be sent. It aliases
// the Response's storage: valid until the Response is reset or reused.
func (r *Response) Reason() []byte { return r.reason }

// Proto returns, on a received response (Client, HostClient), the
// protocol it came in: "HTTP/1.1", "HTTP/1.0" (any "HTTP/1.x" as
// received), or "HTTP/2.0" for one received on an HTTP/2 stream (see
// ClientConfig.HTTP2), as net/http's Response.Proto reports them; empty
// before a head arrived and on an outgoing (handler's) response. It does
// not allocate.
func (r *Response) Proto() string { return r.proto }
