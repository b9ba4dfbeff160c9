package brisk

import (
	"context"
	"errors"
	"io"

	"github.com/brisk-http/brisk/internal/connio"
	"github.com/brisk-http/brisk/wire"
)

// Client-side response decoding (RFC 9112 §4, §6, §7; RFC 9110 §15.2).

// Read reads from the connection into p, noting that the response has
// begun: cc is the source of its reader cc.in. The first read of an
// exchange may write the request first (sendRead).
func (cc *clientConn) Read(p []byte) (int, error) {
	if len(cc.raw.out) > 0 {
		return cc.sendRead(p)
	}
	n, err := cc.nc.Read(p)
	if n > 0 {
		cc.sawByte = true
		return n, nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return 0, err
}

// fill reads more input into cc.in, growing its storage up to limit
// bytes; a full buffer is a *wire.Error of kind full. An empty buffer
// starts over at offset 0, so the read gets the whole storage.
func (cc *clientConn) fill(limit int, full wire.Kind) error {
	if cc.in.Len() == 0 {
		cc.in.Discard()
	}
	switch err := cc.in.Fill(0, limit); {
	case err == connio.ErrFull:
		return &wire.Error{Kind: full, Offset: limit}
	case err != nil:
		return cc.ioError(err)
	}
	return nil
}

// readResponse reads the response head into resp, skipping up to
// maxInterimResponses 1xx interim responses (101 Switching Protocols is
// final), each but 100 (Continue) passed to interim when set (see
// Request.SetInterimHandler), and prepares the body read.
func (cc *clientConn) readResponse(resp *Response, headRequest bool, interim func(int, *Header) error) error {
	resp.resetReceived()
	for n := 0; ; n++ {
		if err := cc.readHead(); err != nil {
			return err
		}
		if !cc.head.Interim() {
			break
		}
		if n == maxInterimResponses {
			return ErrTooManyInterimResponses
		}
		if interim != nil && cc.head.StatusCode != 100 {
			resp.setReceivedHead(&cc.head)
			err := interim(cc.head.StatusCode, &resp.Header)
			resp.status = awaitingHead
			if err != nil {
				return err
			}
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
	cc.keep = !cc.reqClose && h.StatusCode != 101 && cc.body.Framing() != wire.FramingClose && h.KeepAlive()
}

// readHead reads and parses one response head, bounded by
// MaxResponseHeaderBytes and MaxResponseFields. Obs-folds are replaced
// with SP by the parser (wire.Parser.AllowObsFold).
func (cc *clientConn) readHead() error {
	h := &cc.head
	h.Reset(cc.fields)
	for {
		if cc.in.Len() > 0 {
			n, err := cc.hc.parser.ParseResponse(cc.in.Buffered(), h)
			if err == nil {
				cc.in.Consume(n)
				return nil
			}
			if err != wire.ErrNeedMore {
				return cc.http2Hint(err)
			}
		}
		if err := cc.fill(cc.hc.lim.maxHeader, wire.ErrHeaderTooLarge); err != nil {
			return cc.http2Hint(err)
		}
	}
}

// beginBody prepares the read of a body with framing f.
func (cc *clientConn) beginBody(f wire.Framing) {
	cc.decoded = nil
	if f == wire.FramingChunked && cc.body.Chunked.Trailers == nil {
		cc.body.Chunked.Trailers = make([]wire.Field, 0, cc.hc.lim.maxFields)
	}
	cc.body.Reset(f, cc.head.ContentLength)
}

// bodyDone reports whether every body byte has been returned.
func (cc *clientConn) bodyDone() bool { return len(cc.decoded) == 0 && cc.body.Done() }

// readBodyInto reads the whole body into resp, bounded by
// MaxResponseBodyBytes: past it the body is emptied. The body buffer grows
// as bytes arrive (at most doubling), never from the claimed
// Content-Length.
func (cc *clientConn) readBodyInto(resp *Response) error {
	limit := cc.hc.lim.maxBody
	if claimed := cc.body.Remaining(); limit >= 0 && claimed > limit {
		return bodyLimitError(limit, claimed)
	}
	for !cc.bodyDone() {
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
	if cc.body.Framing() == wire.FramingChunked {
		resp.Trailer.Reset()
		for _, f := range cc.body.Chunked.Trailers {
			resp.Trailer.AddBytes(f.Name, f.Value)
		}
	}
	if cc.in.Len() > 0 {
		cc.keep = false
	}
}

// growBody returns b with more capacity: double, at least 512 bytes, but
// no more than the bytes left of a Content-Length and one byte past the
// limit.
func (cc *clientConn) growBody(b []byte, limit int64) []byte {
	n := int64(max(2*cap(b), 512))
	if rem := cc.body.Remaining(); rem >= 0 && rem < n-int64(len(b)) {
		n = int64(len(b)) + rem
	}
	return growTo(b, n, limit)
}

// growTo returns a copy of b with capacity n, but no more than one byte
// past limit (negative: none), so that a body over the limit is seen
// without buffering more of it.
func growTo(b []byte, n, limit int64) []byte {
	if limit >= 0 && n > limit+1 {
		n = limit + 1
	}
	nb := make([]byte, len(b), n)
	copy(nb, b)
	return nb
}

// bodyBuffered reports whether the rest of the response body is in the
// read buffer (or there is none), so that reading it needs no read from
// the connection.
func (cc *clientConn) bodyBuffered() bool {
	d := &cc.body
	return len(cc.decoded) == 0 && (d.Done() ||
		d.Framing() == wire.FramingLength && d.Remaining() <= int64(cc.in.Len()))
}

// readBody reads body bytes into p; io.EOF at the end of the body. A
// Content-Length body cut short is ErrConnectionClosed with
// io.ErrUnexpectedEOF (RFC 9112 §8); a close-delimited one ends with the
// connection (RFC 9112 §6.3 rule 8).
func (cc *clientConn) readBody(p []byte) (int, error) {
	if len(cc.decoded) > 0 {
		n := copy(p, cc.decoded)
		cc.decoded = cc.decoded[n:]
		return n, nil
	}
	d := &cc.body
	switch {
	case d.Done():
		return 0, io.EOF
	case len(p) == 0:
		return 0, nil
	case d.Framing() == wire.FramingChunked:
		return cc.readChunked(p)
	}
	n, err := cc.readRaw(p[:d.Direct(len(p))])
	d.Decode(p[:n]) // counts the bytes: a Content-Length body is checked up front
	switch {
	case err == io.EOF && d.Framing() == wire.FramingClose:
		d.Reset(wire.FramingNone, 0) // done
		return n, io.EOF
	case err != nil:
		return n, cc.ioError(err)
	}
	return n, nil
}

// readRaw returns buffered bytes first, then reads from the connection:
// straight into p when p is at least as large as the read buffer, else
// through the buffer. Errors are the connection's, unwrapped.
func (cc *clientConn) readRaw(p []byte) (int, error) {
	if cc.in.Len() == 0 && len(p) < cc.hc.lim.readBufSize {
		cc.in.Discard()
		if err := cc.in.Fill(0, 0); err != nil {
			return 0, err
		}
	}
	return cc.in.Read(p)
}

// readChunked decodes a chunked body (RFC 9112 §7.1) in place in the read
// buffer and returns the decoded bytes.
func (cc *clientConn) readChunked(p []byte) (int, error) {
	d := &cc.body
	for {
		if cc.in.Len() > 0 {
			src := cc.in.Buffered()
			n, c, err := d.Decode(src)
			cc.in.Consume(c)
			if err != nil {
				return 0, err
			}
			if n > 0 {
				k := copy(p, src[:n])
				cc.decoded = src[k:n]
				return k, nil
			}
			if d.Done() {
				return 0, io.EOF
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

// BodyStream is the body of a response received with DoStream, read as it
// arrives. It must be closed. Reading to io.EOF (which also fills the
// Response's Trailer for a chunked body) returns the connection to the
// pool; Close before that closes the connection (on HTTP/2: resets the
// stream, RST_STREAM, and the connection stays). A BodyStream is not safe
// for concurrent use and must not be used after Close.
type BodyStream struct {
	cc   *clientConn
	h2   *h2Stream // the HTTP/2 stream the body comes on (client_h2_response.go); nil: cc's
	resp *Response
	ctx  context.Context
	stop func() bool
	err  error
	dec  *streamDecoder // decodes the body (client_decompress.go); nil: as received
}

// errStreamClosed is returned by reads after Close.
var errStreamClosed = errors.New("brisk: read on closed body stream")

// Read reads body bytes into p, decoded when the client asked for the
// body's content coding (see ClientConfig.Decoders). A broken body is a
// typed error as for Do (ErrConnectionClosed, ErrTimeout, a wire kind,
// ErrContentEncoding); a cancelled context is a context error.
func (s *BodyStream) Read(p []byte) (int, error) {
	if s.dec != nil {
		return s.readDecoded(p)
	}
	return s.readRaw(p)
}

// readRaw reads body bytes as received.
func (s *BodyStream) readRaw(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.h2 != nil {
		return s.readH2(p)
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
	if s.open() {
		s.finish(false)
	}
	if s.err == nil || s.err == io.EOF {
		s.err = errStreamClosed
	}
	return nil
}

func (s *BodyStream) finish(complete bool) {
	if s.h2 != nil {
		s.h2.end()
		s.h2 = nil
		return
	}
	canceled := s.stop != nil && !s.stop()
	s.cc.hc.release(s.cc, complete && s.cc.keep && !canceled)
	s.cc = nil
}
