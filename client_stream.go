package brisk

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/brisk-http/brisk/wire"
)

// Streamed request bodies (RFC 9112 §6, §7.1) and "Expect: 100-continue"
// on the client side (RFC 9110 §10.1.1).

// DefaultExpectContinueTimeout is how long a request with "Expect:
// 100-continue" waits for the server's 100 (Continue) before it sends its
// body anyway; see ClientConfig.ExpectContinueTimeout.
const DefaultExpectContinueTimeout = time.Second

// streamChunk is the most body bytes a streamed request sends per write:
// one read of the body into the connection's stream buffer.
const streamChunk = 32 << 10

// chunkLineRoom is the room kept before the data of a chunk for its
// chunk-size line: hex(streamChunk) and CRLF fit in it.
const chunkLineRoom = 8

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

// hasBody reports whether req has a body to send.
func (r *Request) hasBody() bool {
	return len(r.body) > 0 || r.stream.set && r.stream.size != 0
}

// writeWithBody writes the request head b and the body of req, either a
// stream or bytes: with expect, it first waits for 100 (Continue)
// (awaitContinue). It reports whether the final response head was read
// meanwhile (the server answered before the body was sent).
func (cc *clientConn) writeWithBody(x *exchange, b []byte, expect bool) (final bool, err error) {
	req := x.req
	var src io.Reader
	if req.stream.set {
		if src, err = req.stream.reader(); err != nil {
			return false, err
		}
		defer req.stream.done()
	}
	if expect {
		if err := cc.write(b); err != nil {
			return false, err
		}
		b = nil
		send, err := cc.awaitContinue(x)
		if err != nil || !send {
			return !send, err
		}
	}
	if src == nil {
		if err := cc.write(b); err != nil {
			return false, err
		}
		return false, cc.write(req.body)
	}
	if req.stream.size >= 0 {
		err = cc.writeSized(b, src, req.stream.size)
	} else {
		err = cc.writeChunked(b, src, &req.Trailer)
	}
	if err != nil && !errors.Is(err, ErrRequestBody) && errors.Is(err, ErrConnectionClosed) {
		return cc.earlyResponse(x, err)
	}
	return false, err
}

// earlyResponse reads the response of a server that closed the
// connection while the body was being written, such as a 413 sent before
// reading the body (RFC 9110 §10.1.1, RFC 9112 §9.6): when a whole head
// is there, it is the response (final); else the write error err stands.
// The connection is not reused.
func (cc *clientConn) earlyResponse(x *exchange, err error) (bool, error) {
	retriable := cc.retriable
	if cc.readResponse(x.resp, x.req.isHead()) != nil {
		cc.retriable = retriable
		x.resp.resetReceived()
		return false, err
	}
	cc.keep = false
	return true, nil
}

// streamBuf returns the connection's buffer for streamed bodies,
// allocated on first use and kept with the connection.
func (cc *clientConn) streamBuf() []byte {
	if cc.sbuf == nil {
		cc.sbuf = make([]byte, chunkLineRoom+streamChunk+2+cc.hc.lim.writeBufSize)
	}
	return cc.sbuf
}

// writeLargeHead writes head on its own when it does not fit in the
// stream buffer in front of a chunk, and returns what is left to send
// with the first chunk.
func (cc *clientConn) writeLargeHead(head []byte) ([]byte, error) {
	if len(head) <= cc.hc.lim.writeBufSize {
		return head, nil
	}
	return nil, cc.write(head)
}

// writeSized writes head and then exactly size bytes read from src, each
// write up to streamChunk bytes (the first one with head).
func (cc *clientConn) writeSized(head []byte, src io.Reader, size int64) error {
	buf := cc.streamBuf()
	head, err := cc.writeLargeHead(head)
	if err != nil {
		return err
	}
	for {
		out := append(buf[:0], head...)
		head = nil
		n := int(min(size, int64(streamChunk)))
		got, err := readBody(src, out[len(out):len(out)+n])
		size -= int64(got)
		if werr := cc.write(out[:len(out)+got]); werr != nil {
			return werr
		}
		switch {
		case size == 0:
			return nil
		case err == io.EOF:
			return fmt.Errorf("%w: %d bytes short of its length: %w", ErrRequestBody, size, io.ErrUnexpectedEOF)
		case err != nil:
			return err
		}
	}
}

// writeChunked writes head and then the bytes read from src as chunks
// (RFC 9112 §7.1), one per read, each in one write with its chunk-size
// line; the last chunk carries the trailer fields of tr.
func (cc *clientConn) writeChunked(head []byte, src io.Reader, tr *Header) error {
	buf := cc.streamBuf()
	head, err := cc.writeLargeHead(head)
	if err != nil {
		return err
	}
	off := len(head) + chunkLineRoom // where each chunk's data goes
	for {
		n, err := readBody(src, buf[off:off+streamChunk])
		if err != nil && err != io.EOF {
			return err
		}
		start, end := off, off
		if n > 0 {
			var line [chunkLineRoom]byte
			l := wire.AppendChunkSize(line[:0], n)
			start = off - len(l)
			copy(buf[start:], l)
			end = off + n
			end += copy(buf[end:], "\r\n")
		}
		if len(head) > 0 { // in front of the first chunk line
			start -= len(head)
			copy(buf[start:], head)
			head = nil
		}
		out := buf[start:end]
		if err == io.EOF {
			if !validFields(tr) {
				return ErrInvalidRequest
			}
			out = wire.AppendLastChunk(out, tr.fields)
		}
		if werr := cc.write(out); werr != nil {
			return werr
		}
		if err == io.EOF {
			return nil
		}
		off = chunkLineRoom
	}
}

// readBody reads from the body src into p: what one Read returns, so that
// each piece is sent as soon as the reader has it. It ends with io.EOF, or
// fails with an ErrRequestBody wrapping the reader's error. A reader that
// returns nothing 100 times in a row is io.ErrNoProgress.
func readBody(src io.Reader, p []byte) (int, error) {
	for range 100 {
		n, err := src.Read(p)
		switch {
		case err == io.EOF:
			return n, io.EOF
		case err != nil:
			return n, fmt.Errorf("%w: %w", ErrRequestBody, err)
		case n > 0:
			return n, nil
		}
	}
	return 0, fmt.Errorf("%w: %w", ErrRequestBody, io.ErrNoProgress)
}

// validFields reports whether every field of h has a valid name and value.
func validFields(h *Header) bool {
	for _, f := range h.fields {
		if !validToken(f.Name) || !wire.ValidFieldValue(f.Value) {
			return false
		}
	}
	return true
}

// awaitContinue waits for the server's answer to a request head sent with
// "Expect: 100-continue" (RFC 9110 §10.1.1), up to ExpectContinueTimeout
// within the request's deadline. It reports whether to send the body: yes
// on 100 (Continue), or when the wait ends with no response begun; no
// when a final response head arrived, which is then read (as
// readResponse does). The connection is then kept only when the server's
// framing allows (see refuseBody).
func (cc *clientConn) awaitContinue(x *exchange) (bool, error) {
	orig := cc.deadline
	at := time.Time{}
	if d := cc.hc.lim.expectTimeout; d > 0 {
		at = time.Now().Add(d)
		if !orig.IsZero() && !at.Before(orig) {
			at = time.Time{} // the request's deadline comes first
		}
	}
	timer := !at.IsZero()
	if timer {
		if err := cc.setDeadline(at); err != nil {
			return false, cc.ioError(err)
		}
	}
	for interim := 0; ; {
		err := cc.readHead()
		if timer && errors.Is(err, ErrTimeout) {
			// Restore the deadline before looking at ctx: a
			// cancellation whose interrupt the set undid is seen.
			timer = false
			cc.retriable = false
			if err := cc.setDeadline(orig); err != nil {
				return false, cc.ioError(err)
			}
			if x.ctx.Err() != nil {
				return false, ctxError(x.ctx)
			}
			if cc.in.Len() == 0 {
				return true, nil // no answer yet: send the body
			}
			continue // a head has begun: read it whole
		}
		if err != nil {
			return false, err
		}
		if cc.head.StatusCode == 100 {
			break
		}
		if !cc.head.Interim() {
			return false, cc.refuseBody(x)
		}
		if interim++; interim > maxInterimResponses {
			return false, ErrTooManyInterimResponses
		}
	}
	if timer {
		if err := cc.setDeadline(orig); err != nil {
			return false, cc.ioError(err)
		}
	}
	return true, nil
}

// refuseBody takes the final response head that answered a request before
// its body was sent. The connection can carry another exchange only if
// the request's framing can still end without its content: a chunked
// body, ended with a last chunk at once. A Content-Length body left
// unsent makes the connection unusable.
func (cc *clientConn) refuseBody(x *exchange) error {
	cc.acceptHead(x.resp, x.req.isHead())
	s := &x.req.stream
	if !cc.keep {
		return nil
	}
	if !s.set || s.size >= 0 {
		cc.keep = false
		return nil
	}
	return cc.write(wire.AppendLastChunk(cc.wbuf[:0], nil))
}
