package brisk

import (
	"context"
	"errors"
	"io"

	"github.com/brisk-http/brisk/wire"
)

// Client-side response decoding (RFC 9112 §4, §6, §7; RFC 9110 §15.2).

// readResponse reads the response head into resp, skipping up to
// maxInterimResponses 1xx interim responses (101 Switching Protocols is
// final), and prepares the body read.
func (cc *clientConn) readResponse(resp *Response, headRequest bool) error {
	resp.resetReceived()
	for interim := 0; ; interim++ {
		if err := cc.readHead(); err != nil {
			return err
		}
		if !cc.head.Interim() {
			break
		}
		if interim == maxInterimResponses {
			return ErrTooManyInterimResponses
		}
	}
	cc.acceptHead(resp, headRequest)
	return nil
}

// acceptHead makes the final response head just read resp's, prepares the
// body read and decides whether the connection may be kept.
func (cc *clientConn) acceptHead(resp *Response, headRequest bool) {
	h := &cc.head
	resp.setReceivedHead(h)
	resp.tls = cc.tlsState()
	cc.beginBody(h.Framing(headRequest))
	cc.keep = !cc.reqClose && h.StatusCode != 101 && cc.framing != wire.FramingClose && h.KeepAlive()
}

// readHead reads and parses one response head, bounded by
// MaxResponseHeaderBytes and MaxResponseFields. A head with obs-folds is
// unfolded (clientfold.go) and parsed again.
func (cc *clientConn) readHead() error {
	h := &cc.head
	h.Reset(cc.fields)
	unfolded := false
	for {
		if cc.r0 < cc.r1 {
			n, err := cc.hc.parser.ParseResponse(cc.rbuf[cc.r0:cc.r1], h)
			if err == nil {
				cc.r0 += n
				return nil
			}
			if err != wire.ErrNeedMore {
				if unfolded || !unfoldable(err, cc.rbuf[cc.r0:cc.r1]) {
					return err
				}
				if err := cc.unfoldHead(); err != nil {
					return err
				}
				unfolded = true
				h.Reset(cc.fields)
				continue
			}
		}
		if err := cc.fill(cc.hc.lim.maxHeader, wire.ErrHeaderTooLarge); err != nil {
			return err
		}
	}
}

// beginBody prepares the read of a body with framing f.
func (cc *clientConn) beginBody(f wire.Framing) {
	cc.framing, cc.remaining, cc.p0, cc.p1 = f, 0, 0, 0
	cc.bodyDone = f == wire.FramingNone
	switch f {
	case wire.FramingLength:
		cc.remaining = cc.head.ContentLength
		cc.bodyDone = cc.remaining == 0
	case wire.FramingChunked:
		if cc.trailers == nil {
			cc.trailers = make([]wire.Field, 0, cc.hc.lim.maxFields)
		}
		cc.dec.Reset()
		cc.dec.MaxTrailerBytes = cc.hc.lim.maxHeader
		cc.dec.Trailers = cc.trailers[:0]
	}
}

// readBodyInto reads the whole body into resp, bounded by
// MaxResponseBodyBytes: past it the body is emptied. The body buffer grows
// as bytes arrive (at most doubling), never from the claimed
// Content-Length.
func (cc *clientConn) readBodyInto(resp *Response) error {
	limit := cc.hc.lim.maxBody
	if cc.framing == wire.FramingLength && limit >= 0 && cc.remaining > limit {
		return bodyLimitError(limit, cc.remaining)
	}
	for !cc.bodyDone {
		b := resp.body
		if len(b) == cap(b) {
			b = cc.growBody(b, limit)
		}
		n, err := cc.readBody(b[len(b):cap(b)])
		resp.body = b[:len(b)+n]
		if limit >= 0 && int64(len(resp.body)) > limit {
			resp.body = resp.body[:0] // no partial body: see MaxResponseBodyBytes
			return bodyLimitError(limit, -1)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	cc.endBody(resp)
	return nil
}

// endBody keeps the trailer fields and decides whether the connection can
// carry another exchange: not when bytes follow the response.
func (cc *clientConn) endBody(resp *Response) {
	if cc.framing == wire.FramingChunked {
		resp.Trailer.Reset()
		for _, f := range cc.dec.Trailers {
			resp.Trailer.AddBytes(f.Name, f.Value)
		}
	}
	if cc.r0 < cc.r1 {
		cc.keep = false
	}
}

// growBody returns b with more capacity: double, at least 512 bytes, but
// no more than the bytes left of a Content-Length and one byte past the
// limit.
func (cc *clientConn) growBody(b []byte, limit int64) []byte {
	n := int64(max(2*cap(b), 512))
	if cc.framing == wire.FramingLength && cc.remaining < n-int64(len(b)) {
		n = int64(len(b)) + cc.remaining
	}
	if limit >= 0 && n > limit+1 {
		n = limit + 1
	}
	nb := make([]byte, len(b), n)
	copy(nb, b)
	return nb
}

// readBody reads body bytes into p; io.EOF at the end of the body.
func (cc *clientConn) readBody(p []byte) (int, error) {
	if cc.bodyDone {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	switch cc.framing {
	case wire.FramingLength:
		return cc.readLength(p)
	case wire.FramingChunked:
		return cc.readChunked(p)
	}
	return cc.readUntilClose(p)
}

// readLength reads a body delimited by Content-Length (RFC 9112 §6.3
// rule 6). The connection closing first is ErrConnectionClosed with
// io.ErrUnexpectedEOF.
func (cc *clientConn) readLength(p []byte) (int, error) {
	if int64(len(p)) > cc.remaining {
		p = p[:cc.remaining]
	}
	n, err := cc.readRaw(p)
	cc.remaining -= int64(n)
	cc.bodyDone = cc.remaining == 0
	if err != nil {
		return n, cc.ioError(err)
	}
	return n, nil
}

// readUntilClose reads a body delimited by the connection closing (RFC
// 9112 §6.3 rule 8).
func (cc *clientConn) readUntilClose(p []byte) (int, error) {
	n, err := cc.readRaw(p)
	if err == io.EOF {
		cc.bodyDone = true
		return n, io.EOF
	}
	if err != nil {
		return n, cc.ioError(err)
	}
	return n, nil
}

// readRaw returns buffered bytes first, then reads from the connection:
// straight into p when p is at least as large as the read buffer.
func (cc *clientConn) readRaw(p []byte) (int, error) {
	if cc.r0 < cc.r1 {
		n := copy(p, cc.rbuf[cc.r0:cc.r1])
		cc.r0 += n
		return n, nil
	}
	cc.r0, cc.r1 = 0, 0
	if len(p) >= len(cc.rbuf) {
		return cc.read(p)
	}
	n, err := cc.read(cc.rbuf)
	cc.r1 = n
	cc.r0 = copy(p, cc.rbuf[:n])
	return cc.r0, err
}

// readChunked decodes a chunked body (RFC 9112 §7.1) in place in the read
// buffer with the ChunkedDecoder and returns the decoded bytes.
func (cc *clientConn) readChunked(p []byte) (int, error) {
	for {
		if cc.p0 < cc.p1 {
			n := copy(p, cc.rbuf[cc.p0:cc.p1])
			cc.p0 += n
			return n, nil
		}
		if cc.dec.Done() {
			cc.bodyDone = true
			return 0, io.EOF
		}
		if cc.r0 < cc.r1 {
			n, c, err := cc.dec.Decode(cc.rbuf[cc.r0:cc.r1])
			cc.p0, cc.p1 = cc.r0, cc.r0+n
			cc.r0 += c
			if err != nil {
				return 0, err
			}
			if n > 0 || cc.dec.Done() {
				continue
			}
		}
		// Only an incomplete trailer section stays unconsumed: let the
		// buffer hold one past MaxResponseHeaderBytes so the decoder's
		// limit is the one reached.
		if err := cc.fill(cc.hc.lim.maxHeader+cc.hc.lim.readBufSize, wire.ErrTrailerTooLarge); err != nil {
			return 0, err
		}
	}
}

// resetReceived resets r as a client-side response: until a head is
// received its StatusCode is 0, not the server's default 200.
func (r *Response) resetReceived() {
	r.Reset()
	r.client = true
	r.tls = nil
}

// setReceivedHead makes r the response of head h: status code, reason
// phrase and fields are copied, so r does not alias the connection.
func (r *Response) setReceivedHead(h *wire.ResponseHead) {
	r.status = h.StatusCode
	r.reason = append(r.reason[:0], h.Reason...)
	r.Header.copyReceived(h.Fields, h.Raw)
}

// Reason returns the reason phrase received (client side), or the one set
// with SetReason. It aliases the Response's storage.
func (r *Response) Reason() []byte { return r.reason }

// copyReceived makes h a copy of a parsed field section: raw is copied
// into h's storage once and the fields, which alias raw, are rebased onto
// the copy. Raw then returns the copy.
func (h *Header) copyReceived(fields []wire.Field, raw []byte) {
	h.arena = append(h.arena[:0], raw...)
	h.raw = h.arena[:len(raw):len(raw)]
	h.fields = h.fields[:0]
	for _, f := range fields {
		name, ok1 := rebase(h.raw, raw, f.Name)
		value, ok2 := rebase(h.raw, raw, f.Value)
		if !ok1 || !ok2 { // not within raw: copy separately
			name, value = store(h, f.Name), store(h, f.Value)
		}
		h.fields = append(h.fields, wire.Field{Name: name, Value: value})
	}
}

// rebase returns the part of dst at the offset of s within src, where s
// is a subslice of src (their capacities give the offset) and dst a copy
// of src.
func rebase(dst, src, s []byte) ([]byte, bool) {
	off := cap(src) - cap(s)
	if off < 0 || off+len(s) > len(src) {
		return nil, false
	}
	return dst[off : off+len(s) : off+len(s)], true
}

// BodyStream is the body of a response received with DoStream, read as it
// arrives. It must be closed. Reading to io.EOF (which also fills the
// Response's Trailer for a chunked body) returns the connection to the
// pool; Close before that closes the connection. A BodyStream is not safe
// for concurrent use and must not be used after Close.
type BodyStream struct {
	cc   *clientConn
	resp *Response
	ctx  context.Context
	stop func() bool
	err  error
}

// errStreamClosed is returned by reads after Close.
var errStreamClosed = errors.New("brisk: read on closed body stream")

// Read reads body bytes into p. A broken body is a typed error as for Do
// (ErrConnectionClosed, ErrTimeout, a wire kind); a cancelled context is a
// context error.
func (s *BodyStream) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.cc.readBody(p)
	switch {
	case err == io.EOF:
		s.cc.endBody(s.resp)
		s.finish(true)
		s.err = io.EOF
	case err != nil:
		if s.ctx.Err() != nil {
			err = ctxError(s.ctx)
		}
		s.finish(false)
		s.err = err
	}
	return n, err
}

// Close releases the connection: back to the pool when the body was read
// to its end, else closed. It returns nil.
func (s *BodyStream) Close() error {
	if s.cc != nil {
		s.finish(false)
	}
	if s.err == nil || s.err == io.EOF {
		s.err = errStreamClosed
	}
	return nil
}

func (s *BodyStream) finish(complete bool) {
	canceled := s.stop != nil && !s.stop()
	s.cc.hc.release(s.cc, complete && s.cc.keep && !canceled)
	s.cc = nil
}
