package brisk

import (
	"fmt"
	"io"
	"strings"
)

// The body of a request sent by the client when it is read from an
// io.Reader (SetBodyStream), and whether it can be sent again.

// bodySource is the body of a client request read from an io.Reader.
type bodySource struct {
	r       io.Reader // the reader to send; nil once it is done
	size    int64     // Content-Length; < 0: unknown, sent chunked
	getBody func() (io.Reader, error)
	set     bool // the body is a stream
	used    bool // the first reader was handed out: sending again needs getBody
}

// SetBodyStream sets the body of a client request to the bytes read from
// body while the request is sent, replacing a body set with SetBody: the
// body is never held in memory whole: the client writes what each Read
// returns, up to 32 KiB, as it comes (as one chunk, when chunked). size is its length in bytes, sent as
// Content-Length; negative means unknown, and the body is sent with
// chunked transfer coding (RFC 9112 §7.1), ending with the fields of
// r.Trailer as its trailer section: they are read once body has returned
// io.EOF, so a reader may set them in its last Read. A chunked request is
// sent with a Trailer field naming the trailer fields already set when
// the request head is written.
//
// The client stops reading after size bytes. A body that ends (io.EOF)
// before size bytes, or whose Read fails, ends the exchange with an error
// satisfying errors.Is(err, ErrRequestBody) (and errors.Is with the
// reader's error, or io.ErrUnexpectedEOF), and the connection is closed:
// the server cannot take a body cut short for a complete one.
//
// A stream is read once. An exchange that must send the body again (a
// retry on a closed keep-alive connection, see MaxIdempotentRetries, or a
// 307 or 308 redirect) gets a new reader from the function set with
// SetGetBody; without one, the request is not retried (the error is
// returned) and a 307 or 308 redirect is returned as the response. A
// Request sent again after its stream was read fails with
// ErrBodyNotRewindable unless it has a GetBody.
//
// When body (or a reader from GetBody) is an io.Closer, the client closes
// it once it has been read to its end, its sending failed, or the server
// refused it before it was sent (100-continue). A nil body is empty.
// Reset, SetBody and
// another SetBodyStream forget the stream and its GetBody.
func (r *Request) SetBodyStream(body io.Reader, size int64) {
	if body == nil {
		body = strings.NewReader("") // an empty body
	}
	r.body = r.body[:0]
	r.stream = bodySource{r: body, size: max(size, -1), set: true}
}

// SetGetBody sets the function that returns a new reader of the body set
// with SetBodyStream, from its start, for the exchanges that send the
// body again (see SetBodyStream); call it after SetBodyStream. It is not
// called for the first send.
// An error it returns ends the exchange, wrapped as ErrRequestBody.
func (r *Request) SetGetBody(getBody func() (io.Reader, error)) {
	r.stream.getBody = getBody
}

// reader returns the reader for one sending of the body: the stream's own
// the first time, then one from getBody.
func (s *bodySource) reader() (io.Reader, error) {
	if !s.used && s.r != nil {
		s.used = true
		return s.r, nil
	}
	if s.getBody == nil {
		return nil, ErrBodyNotRewindable
	}
	s.done()
	r, err := s.getBody()
	if err != nil {
		return nil, fmt.Errorf("%w: GetBody: %w", ErrRequestBody, err)
	}
	s.r = r
	return r, nil
}

// resendable reports whether the body can be sent again: it is not a
// stream, or the stream was not read yet, or it has a getBody.
func (s *bodySource) resendable() bool {
	return !s.set || !s.used || s.getBody != nil
}

// done closes the current reader when it is an io.Closer, and forgets it.
func (s *bodySource) done() {
	if c, ok := s.r.(io.Closer); ok {
		c.Close()
	}
	s.r = nil
}

// Resendable reports whether r may be sent again after an attempt that
// may have reached the server: its method is idempotent (RFC 9110
// §9.2.2: GET, HEAD, OPTIONS, TRACE, PUT, DELETE; an empty method means
// GET) and its body can be sent again (one set with SetBody, or a stream
// not read yet or with a GetBody; see SetBodyStream). It is the rule by
// which the client retries a request on a keep-alive connection found
// closed (see MaxIdempotentRetries), for callers that send a failed
// request again themselves, on another connection or server (package lb
// does).
func (r *Request) Resendable() bool {
	return idempotent(r.head.Method) && r.stream.resendable()
}

// hasBody reports whether req has a body to send.
func (r *Request) hasBody() bool {
	return len(r.body) > 0 || r.stream.set && r.stream.size != 0
}

// keepsBody reports whether following a redirect with status code status
// sends req's body again: not for a 303 or a 301 or 302 answering a POST,
// which become a GET without body (see redirect).
func keepsBody(req *Request, status int) bool {
	m := string(req.head.Method)
	return !(status == 303 && m != "HEAD" || (status == 301 || status == 302) && m == "POST")
}

// canFollow reports whether a redirect with status code status can be
// followed: when it resends the body, the body must be resendable.
func (r *Request) canFollow(status int) bool {
	return !r.stream.set || !keepsBody(r, status) || r.stream.resendable()
}
