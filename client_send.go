package brisk

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/brisk-http/brisk/wire"
)

// Sending a request: its head (encoded by client_head.go) and body, in
// one write when they fit, else a streamed body (RFC 9112 §6, §7.1; the
// body's source is request_stream.go), after "Expect: 100-continue" the
// wait for the server's answer (RFC 9110 §10.1.1).

// streamChunk is the most body bytes a streamed request sends per write:
// one read of the body into the connection's stream buffer.
const streamChunk = 32 << 10

// chunkLineRoom is the room kept before the data of a chunk for its
// chunk-size line: hex(streamChunk) and CRLF fit in it.
const chunkLineRoom = 8

// writeRequest encodes x.req and writes it: the head and, when it fits,
// the body in one write; a streamed body, or one awaiting 100 (Continue),
// is written by writeWithBody. It reports whether the final response head
// has been read already (the server answered before the body was sent).
func (cc *clientConn) writeRequest(x *exchange, t *target) (bool, error) {
	req := x.req
	b, plan, bodyIn, err := appendRequest(cc.wbuf[:0], &cc.tbuf, req, t)
	if err != nil {
		return false, err
	}
	cc.wbuf = b
	cc.reqClose, cc.decode = plan.close, plan.decode
	if req.stream.set || plan.expect && req.hasBody() {
		return cc.writeWithBody(x, b, plan.expect && req.hasBody())
	}
	if bodyIn && cc.raw.rc != nil {
		cc.raw.out = b // written by the first read (sendRead)
		return false, nil
	}
	if err := cc.write(b); err != nil {
		return false, err
	}
	if !bodyIn {
		if err := cc.write(req.body); err != nil {
			if errors.Is(err, ErrConnectionClosed) {
				return cc.earlyResponse(x, err) // such as a 413 before the body
			}
			return false, err
		}
	}
	return false, nil
}

func (cc *clientConn) write(p []byte) error {
	if _, err := cc.nc.Write(p); err != nil {
		return cc.ioError(err)
	}
	return nil
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
	if cc.readResponse(x.resp, x.req.isHead(), x.req.interim) != nil {
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
