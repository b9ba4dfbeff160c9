package brisk

import (
	"io"
	"slices"
	"time"

	"github.com/brisk-http/brisk/wire"
)

// bodyReader reads the request body from the connection: bytes already in
// the read buffer first, then from the connection. It is the io.Reader
// returned by Request.BodyReader and is embedded in the conn.
type bodyReader struct {
	c         *conn
	framing   wire.Framing
	remaining int64 // FramingLength: body bytes not yet consumed
	total     int64 // FramingChunked: body bytes decoded so far
	dec       wire.ChunkedDecoder
	p0, p1    int // FramingChunked: decoded bytes not yet returned, in rbuf
	err       error
	started   bool   // a read happened (100 Continue sent if asked for)
	expect    bool   // the client waits for 100 Continue
	buf       []byte // Body's storage when the body does not fit rbuf

	// For ReadTimeout and MinRequestBodyRate (datarate.go).
	t0     int64         // start of the body (never earlier), Unix ns
	readBy int64         // ReadTimeout deadline, Unix ns; 0 when none (set by arm)
	armed  bool          // the body's read deadline is set on the connection
	waited time.Duration // time spent waiting for body bytes
	got    int64         // body bytes read from the connection
}

// maxKeptBodyBuf is the largest body buffer kept for the next request.
const maxKeptBodyBuf = 64 << 10

// maxChunkedBuffer bounds the read buffer while decoding a chunked body:
// only chunk lines, extensions and trailers must fit in it.
const maxChunkedBuffer = 1 << 20

// reset prepares b for the body of the request with head h.
func (b *bodyReader) reset(h *wire.RequestHead) {
	b.framing = h.Framing()
	b.remaining, b.total, b.p0, b.p1 = 0, 0, 0, 0
	b.err, b.started = nil, false
	b.expect = h.Expect100 && h.Minor >= 1 && b.framing != wire.FramingNone
	if cap(b.buf) > maxKeptBodyBuf {
		b.buf = nil
	}
	switch b.framing {
	case wire.FramingLength:
		b.remaining = h.ContentLength
	case wire.FramingChunked:
		b.dec.Reset()
		b.dec.MaxTrailerBytes = b.c.lim.maxHeader // documented on Server.MaxHeaderBytes
		b.dec.Trailers = b.c.srv.pools.trailerStorage(b.c.rbuf)
	}
}

// Read implements io.Reader.
func (b *bodyReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if !b.started {
		if b.err = b.start(); b.err != nil {
			return 0, b.err
		}
	}
	var n int
	var err error
	switch b.framing {
	case wire.FramingLength:
		n, err = b.readLength(p)
	case wire.FramingChunked:
		n, err = b.readChunked(p)
	default:
		err = io.EOF
	}
	if err == io.EOF {
		b.c.watch.startIfWanted()
	} else if err != nil {
		b.err = err
	}
	return n, err
}

// start sends "100 Continue" (RFC 9110 §10.1.1) when the client waits for
// it, after any pipelined responses still pending, in order.
func (b *bodyReader) start() error {
	b.started = true
	c := b.c
	if !b.expect || c.r0 < c.r1 {
		return nil
	}
	w := c.writeBuf()
	w.b = append(w.b, "HTTP/1.1 100 Continue\r\n\r\n"...)
	return c.flush()
}

// awaitingContinue reports that the client waits for 100 Continue, which
// was not sent, so its body may never come.
func (b *bodyReader) awaitingContinue() bool { return b.expect && !b.started }

// complete reports whether the whole body was consumed from the input.
func (b *bodyReader) complete() bool {
	switch b.framing {
	case wire.FramingLength:
		return b.remaining == 0
	case wire.FramingChunked:
		return b.dec.Done()
	}
	return true
}

func (b *bodyReader) readLength(p []byte) (int, error) {
	if b.remaining == 0 {
		return 0, io.EOF
	}
	c := b.c
	if int64(len(p)) > b.remaining {
		p = p[:b.remaining]
	}
	if c.r0 < c.r1 {
		n := copy(p, c.rbuf.b[c.r0:c.r1])
		c.r0 += n
		b.remaining -= int64(n)
		return n, nil
	}
	if err := c.flush(); err != nil {
		return 0, err
	}
	n, err := b.netRead(p)
	b.remaining -= int64(n)
	if n > 0 {
		return n, nil
	}
	if err == io.EOF || err == nil {
		err = io.ErrUnexpectedEOF
	}
	return 0, err
}

func (b *bodyReader) readChunked(p []byte) (int, error) {
	for b.p0 == b.p1 {
		if b.dec.Done() {
			return 0, io.EOF
		}
		if err := b.decodeMore(); err != nil {
			return 0, err
		}
	}
	n := copy(p, b.c.rbuf.b[b.p0:b.p1])
	b.p0 += n
	return n, nil
}

// decodeMore decodes the buffered chunked input once, or reads more when
// it holds no complete element.
func (b *bodyReader) decodeMore() error {
	c := b.c
	if c.r0 < c.r1 {
		n, consumed, err := b.dec.Decode(c.rbuf.b[c.r0:c.r1])
		if err != nil && wire.KindOf(err) != wire.ErrNeedMore {
			return err
		}
		b.p0, b.p1 = c.r0, c.r0+n
		c.r0 += consumed
		b.total += int64(n)
		if c.lim.bodyTooLarge(b.total) {
			return ErrBodyTooLarge
		}
		if b.dec.Done() {
			c.ctx.Request.Trailer.setReceived(b.dec.Trailers, nil)
			return nil
		}
		if n > 0 || consumed > 0 {
			return nil
		}
	}
	if err := b.makeRoom(); err != nil {
		return err
	}
	err := b.fill()
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// makeRoom frees space at the end of the read buffer for chunked input.
// The head before bodyStart and trailer fields already decoded stay in
// place (they alias the buffer); otherwise unconsumed input moves back to
// bodyStart, or the buffer grows.
func (b *bodyReader) makeRoom() error {
	c := b.c
	if c.r1 < len(c.rbuf.b) {
		return nil
	}
	if c.r0 > c.bodyStart && len(b.dec.Trailers) == 0 {
		c.r1 = c.bodyStart + copy(c.rbuf.b[c.bodyStart:], c.rbuf.b[c.r0:c.r1])
		c.r0 = c.bodyStart
		return nil
	}
	if len(c.rbuf.b) >= maxChunkedBuffer {
		return &wire.Error{Kind: wire.ErrChunkOverhead, Offset: c.r1}
	}
	c.growRead(2 * len(c.rbuf.b))
	return nil
}

// readAll reads the whole body for Request.Body: in place in the read
// buffer when it fits, else into b.buf.
func (b *bodyReader) readAll() ([]byte, error) {
	c := b.c
	if b.framing == wire.FramingNone {
		return nil, nil
	}
	if b.framing == wire.FramingLength && c.r0+int(b.remaining) <= len(c.rbuf.b) && !b.started {
		return b.readInPlace()
	}
	buf := b.buf[:0]
	if b.framing == wire.FramingLength {
		buf = slices.Grow(buf, int(b.remaining))
	}
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, max(512, cap(buf)))
		}
		n, err := b.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			b.buf = buf
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// fill is conn.fill for body bytes: it reads through netRead.
func (b *bodyReader) fill() error {
	c := b.c
	if err := c.flush(); err != nil {
		return err
	}
	n, err := b.netRead(c.rbuf.b[c.r1:])
	c.r1 += n
	if n > 0 {
		return nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return err
}

// readInPlace reads a Content-Length body that fits the read buffer after
// the head and returns it aliased there (no copy).
func (b *bodyReader) readInPlace() ([]byte, error) {
	c := b.c
	if b.err = b.start(); b.err != nil {
		return nil, b.err
	}
	end := c.r0 + int(b.remaining)
	for c.r1 < end {
		if err := b.fill(); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			b.err = err
			return nil, err
		}
	}
	body := c.rbuf.b[c.r0:end]
	c.r0 = end
	b.remaining = 0
	c.watch.startIfWanted()
	return body, nil
}

// drain discards the unread body, up to limit bytes, so the connection can
// serve the next request. It reports whether the body was fully consumed.
func (b *bodyReader) drain(limit int64) bool {
	c := b.c
	b.started = true // a body that was never asked for is not awaited
	b.armed = true   // the drain's deadline, not the body's
	c.setReadTimeout(max(c.lim.readTimeout, c.lim.readHeaderTimeout))
	switch b.framing {
	case wire.FramingLength:
		if b.remaining > limit+int64(c.r1-c.r0) {
			return false
		}
		for b.remaining > 0 {
			k := min(int64(c.r1-c.r0), b.remaining)
			c.r0 += int(k)
			b.remaining -= k
			if b.remaining > 0 {
				c.r0, c.r1 = 0, 0 // the handler returned: nothing aliases rbuf
				if c.fill() != nil {
					return false
				}
			}
		}
	case wire.FramingChunked:
		for !b.dec.Done() {
			b.p0 = b.p1
			if b.decodeMore() != nil || b.total > limit {
				return false
			}
		}
	}
	return true
}
