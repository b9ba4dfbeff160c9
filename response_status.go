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
}

// setReceivedHead makes r the response of head h: status code, reason
// phrase and fields are copied, so r does not alias the connection.
func (r *Response) setReceivedHead(h *wire.ResponseHead) {
	r.status = h.StatusCode
	r.reason = append(r.reason[:0], h.Reason...)
	r.Header.copyReceived(h.Fields, h.Raw)
}

// Reason returns the reason phrase (RFC 9112 §4). On a received response
// (Client, HostClient) it is the one received, possibly empty; on an
// outgoing one (a handler's) it is the one set with SetReason, empty when
// the phrase registered for the status code is to be sent. It aliases
// the Response's storage: valid until the Response is reset or reused.
func (r *Response) Reason() []byte { return r.reason }
