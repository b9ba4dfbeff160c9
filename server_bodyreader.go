package brisk

import (
	"io"
	"slices"
	"time"

	"github.com/brisk-http/brisk/internal/connio"
	"github.com/brisk-http/brisk/wire"
)

// bodyReader reads the request body from the connection's input (conn.in,
// buffered bytes first), framed by a wire.BodyDecoder. It is the io.Reader
// returned by Request.BodyReader and is embedded in the conn.
type bodyReader struct {
	c       *conn
	dec     wire.BodyDecoder
	head    int // end of the head in the input's storage: kept input moves no lower
	p0, p1  int // FramingChunked: decoded bytes not yet returned, in the input's storage
	err     error
	buf     []byte // Body's storage when the body does not fit the read buffer
	started bool   // a read happened (100 Continue sent if asked for)
	expect  bool   // the client waits for 100 Continue
	reading bool   // the connection's reads are body reads (source)
	armed   bool   // the body's read deadline is set on the connection (planDeadlines, netRead)

	// For ReadTimeout and MinRequestBodyRate (planDeadlines, netRead).
	t0     int64         // start of the body (never earlier), Unix ns
	readBy int64         // ReadTimeout deadline, Unix ns; 0 when none (set by arm)
	waited time.Duration // time spent waiting for body bytes
	got    int64         // body bytes read from the connection
}

// maxKeptBodyBuf is the largest body buffer kept for the next request.
const maxKeptBodyBuf = 64 << 10

// maxChunkedBuffer bounds the read buffer while decoding a chunked body:
// only chunk lines, extensions and trailers must fit in it.
const maxChunkedBuffer = 1 << 20

// init sets the limits of c's Server, once per conn.
func (b *bodyReader) init(c *conn) {
	b.c = c
	b.dec.MaxBytes = c.lim.maxBody
	b.dec.Chunked.MaxTrailerBytes = c.lim.maxHeader // documented on Server.MaxHeaderBytes
}

// reset prepares b for the body of the request with head h, which ends
// at the input's offset.
func (b *bodyReader) reset(h *wire.RequestHead) {
	c := b.c
	f := h.Framing()
	if f == wire.FramingChunked {
		b.dec.Chunked.Trailers = c.srv.pools.trailerStorage(c.rbuf)
	}
	b.dec.Reset(f, h.ContentLength)
	b.head, b.p0, b.p1 = c.in.Offset(), 0, 0
	b.err, b.started = nil, false
	b.expect = h.Expect100 && h.Minor >= 1 && f != wire.FramingNone
	if cap(b.buf) > maxKeptBodyBuf {
		b.buf = nil
	}
	c.body.reading = true
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
	if b.dec.Framing() == wire.FramingChunked {
		n, err = b.readChunked(p)
	} else {
		n, err = b.readLength(p)
	}
	if err == io.EOF {
		b.c.bodyRead()
	} else if err != nil {
		b.err = err
	}
	return n, err
}

// WriteTo implements io.WriterTo, for io.Copy(w, body): it reads the
// body as Read does, into a pooled buffer of copyBufSize bytes held only
// during the call, so that a large body is read from the connection in
// system calls of up to 64 KiB rather than in those of the destination's
// ReadFrom or io.Copy's buffer.
func (b *bodyReader) WriteTo(w io.Writer) (int64, error) {
	return copyBody(w, b, &b.c.srv.pools)
}

// copyBody copies r to w through a pooled buffer of copyBufSize bytes
// (see bodyReader.WriteTo), calling r's Read and w's Write only.
func copyBody(w io.Writer, r io.Reader, pools *pools) (int64, error) {
	buf := pools.getCopyBuf()
	defer pools.putCopyBuf(buf)
	var total int64
	for {
		n, err := r.Read(buf.b)
		if n > 0 {
			m, werr := w.Write(buf.b[:n])
			total += int64(m)
			if werr == nil && m < n {
				werr = io.ErrShortWrite
			}
			if werr != nil {
				return total, werr
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// start sends "100 Continue" (RFC 9110 §10.1.1) when the client waits for
// it, after any pipelined responses still pending, in order.
func (b *bodyReader) start() error {
	b.started = true
	c := b.c
	if !b.expect || c.in.Len() > 0 {
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
func (b *bodyReader) complete() bool { return b.dec.Done() }

// readLength reads a Content-Length body: buffered bytes first, then
// straight from the connection into p.
func (b *bodyReader) readLength(p []byte) (int, error) {
	if b.dec.Done() {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	n, err := b.c.in.Read(p[:b.dec.Direct(len(p))])
	if n > 0 {
		b.dec.Decode(p[:n]) // counts n: within the length checked by checkLimits
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
	n := copy(p, b.c.in.Storage()[b.p0:b.p1])
	b.p0 += n
	return n, nil
}

// decodeMore decodes the buffered chunked input once, or reads more when
// it holds no complete element. A body beyond MaxBodyBytes is
// ErrBodyTooLarge.
func (b *bodyReader) decodeMore() error {
	in := &b.c.in
	if in.Len() > 0 {
		off := in.Offset()
		n, consumed, err := b.dec.Decode(in.Buffered())
		if err != nil {
			if wire.KindOf(err) == wire.ErrBodyTooLarge {
				return ErrBodyTooLarge
			}
			return err
		}
		b.p0, b.p1 = off, off+n
		in.Consume(consumed)
		if b.dec.Done() {
			if len(b.dec.Chunked.Trailers) > 0 {
				b.dec.Chunked.Trailers = dropForbiddenTrailers(b.dec.Chunked.Trailers)
			}
			b.c.ctx.Request.Trailer.setReceived(b.dec.Chunked.Trailers, nil)
			return nil
		}
		if n > 0 || consumed > 0 {
			return nil
		}
	}
	return b.fillChunked()
}

// fillChunked reads more chunked input. When the buffer is full the kept
// input moves back to the end of the head (trailer fields already decoded
// alias it: then it stays), or the buffer grows up to maxChunkedBuffer
// (ErrChunkOverhead past it).
func (b *bodyReader) fillChunked() error {
	in := &b.c.in
	keep := b.head
	if len(b.dec.Chunked.Trailers) > 0 {
		keep = in.Offset()
	}
	switch err := in.Fill(keep, maxChunkedBuffer); err {
	case connio.ErrFull:
		return &wire.Error{Kind: wire.ErrChunkOverhead, Offset: len(in.Storage())}
	case io.EOF:
		return io.ErrUnexpectedEOF
	default:
		return err
	}
}

// readAll reads the whole body for Request.Body: in place in the read
// buffer when it fits, else into b.buf.
func (b *bodyReader) readAll() ([]byte, error) {
	switch b.dec.Framing() {
	case wire.FramingNone:
		return nil, nil
	case wire.FramingLength:
		if !b.started && b.c.in.Offset()+int(b.dec.Remaining()) <= cap(b.c.in.Storage()) {
			return b.readInPlace()
		}
	}
	buf := b.buf[:0]
	if r := b.dec.Remaining(); r > 0 {
		buf = slices.Grow(buf, int(r))
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

// readInPlace reads a Content-Length body that fits the read buffer after
// the head and returns it aliased there (no copy).
func (b *bodyReader) readInPlace() ([]byte, error) {
	c := b.c
	if b.err = b.start(); b.err != nil {
		return nil, b.err
	}
	size := int(b.dec.Remaining())
	for c.in.Len() < size {
		if err := c.in.Fill(c.in.Offset(), 0); err != nil { // room is there
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			b.err = err
			return nil, err
		}
	}
	body := c.in.Buffered()[:size]
	c.in.Consume(size)
	b.dec.Decode(body)
	c.bodyRead()
	return body, nil
}

// drain discards the unread body, up to limit bytes, so the connection can
// serve the next request. It reports whether the body was fully consumed.
func (b *bodyReader) drain(limit int64) bool {
	c := b.c
	b.started = true // a body that was never asked for is not awaited
	b.armed = true   // the drain's deadline, not the body's
	c.setReadTimeout(max(c.lim.readTimeout, c.lim.readHeaderTimeout))
	switch b.dec.Framing() {
	case wire.FramingLength:
		return b.drainLength(limit)
	case wire.FramingChunked:
		for !b.dec.Done() {
			b.p0 = b.p1
			if b.decodeMore() != nil || b.dec.Total() > limit {
				return false
			}
		}
	}
	return true
}

// drainLength is drain for a Content-Length body, read without the body's
// deadlines: under the drain's.
func (b *bodyReader) drainLength(limit int64) bool {
	in := &b.c.in
	if b.dec.Remaining() > limit+int64(in.Len()) {
		return false
	}
	b.reading = false
	for {
		n, _, _ := b.dec.Decode(in.Buffered()) // within the length checked by checkLimits
		in.Consume(n)
		if b.dec.Done() {
			return true
		}
		in.Discard() // the handler returned: nothing aliases the buffer
		if in.Fill(0, 0) != nil {
			return false
		}
	}
}

// Read deadlines and MinRequestBodyRate: bodyReader.planDeadlines when
// the body starts, netRead for every read of body bytes from the
// connection (arm, on the first one; afterTimeout when one times out).

// planDeadlines notes, when the body starts, the time its read
// deadlines (ReadTimeout, MinRequestBodyRateGrace) count from, and counts
// the body bytes that came with the head as received (as netRead counts
// bytes, chunked framing included). The earlier deadline is set by the
// first read from the connection (netRead, arm), so that a body that came
// with its head costs nothing more.
func (b *bodyReader) planDeadlines() {
	c := b.c
	b.waited, b.got, b.armed = 0, int64(c.in.Len()), false
	if b.dec.Framing() == wire.FramingLength {
		b.got = min(b.got, b.dec.Remaining()) // not a pipelined request's bytes
	}
	if c.lim.coarseBody {
		b.t0 = c.srv.date.coarseUnixNano() + int64(time.Second) // never early, see timeoutAt
	} else {
		b.t0 = time.Now().UnixNano()
	}
}

// arm computes the deadlines and sets the earlier one (none: 0).
func (b *bodyReader) arm() {
	c := b.c
	b.armed = true
	b.readBy = 0
	if d := c.lim.readTimeout; d > 0 {
		b.readBy = b.t0 + int64(d)
	}
	dl := b.readBy
	if r := &c.lim.bodyRate; r.perSec > 0 {
		if g := b.t0 + int64(r.grace); dl == 0 || g < dl {
			dl = g
		}
	}
	c.setReadDeadlineNs(dl)
}

// setDeadline makes ns (Unix ns; 0: none) the read deadline from now
// until the next request (FromHTTP's SetReadDeadline): for a body still
// to read, in place of ReadTimeout's deadline, as net/http's replaces its
// ReadTimeout, MinRequestBodyRate still applying (judged when its grace
// period ends, at once when it has).
func (b *bodyReader) setDeadline(ns int64) {
	dl := ns
	if b.dec.Framing() != wire.FramingNone && !b.dec.Done() {
		b.armed = true // arm would put ReadTimeout's back
		b.readBy = ns
		if r := &b.c.lim.bodyRate; r.perSec > 0 {
			if g := b.t0 + int64(r.grace); dl == 0 || g < dl {
				dl = g
			}
		}
	}
	b.c.setReadDeadlineNs(dl)
}

// netRead reads body bytes from the connection into p, counting the time
// waited and the bytes received for the rate; a read that times out is
// retried as long as afterTimeout allows.
func (b *bodyReader) netRead(p []byte) (int, error) {
	c := b.c
	if !b.armed {
		b.arm()
	}
	rate := c.lim.bodyRate.on()
	for {
		var start time.Time
		if rate {
			start = time.Now()
		}
		n, err := c.nc.Read(p)
		if rate {
			b.waited += time.Since(start)
			b.got += int64(n)
		}
		if n > 0 || err == nil || !isTimeout(err) {
			return n, err
		}
		if err = b.afterTimeout(err); err != nil {
			return 0, err
		}
	}
}

// afterTimeout judges a body read that timed out: err once ReadTimeout
// has passed, ErrBodyTooSlow when the client sent fewer bytes than the
// rate asks for the time waited, else nil, with the deadline moved to
// when the rate would be broken.
func (b *bodyReader) afterTimeout(err error) error {
	r := b.c.lim.bodyRate
	now := time.Now().UnixNano()
	if !r.on() || b.readBy != 0 && now >= b.readBy {
		return err
	}
	left := r.allowed(b.got) - b.waited
	if left <= 0 {
		return ErrBodyTooSlow
	}
	dl := now + int64(left)
	if b.readBy != 0 {
		dl = min(dl, b.readBy)
	}
	b.c.setReadDeadlineNs(dl)
	return nil
}
