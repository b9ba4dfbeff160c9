package brisk

import (
	"io"
	"net"
	"os"
	"syscall"

	"github.com/brisk-http/brisk/wire"
)

// sendfileChunk is the most bytes handed to one ReadFrom of the socket
// (sendfile(2) on Linux) before the write deadline is armed again, so that
// WriteTimeout bounds each chunk, like each write, not the whole body. It
// is the size Go's runtime gives one sendfile call.
const sendfileChunk = 4 << 20

// minReadRoom is the free write-buffer space below which ReadFrom flushes
// before reading into the buffer.
const minReadRoom = 512

// ReadFrom copies r to the body (io.ReaderFrom, so io.Copy uses it) and
// returns the number of bytes copied. With a Content-Length set by the
// handler it reads at most the bytes still expected and leaves the rest of
// r unread; a shorter r is not an error here, but a body that ends short
// of its Content-Length closes the connection (see Ctx.BodyWriter). For a
// response without a body (HEAD, 204, 304) r is not read and 0 is returned.
//
// When the body has a Content-Length, the connection is a plain
// *net.TCPConn and r is an *os.File (also through io.Copy) or an
// *io.LimitedReader of one, the
// bytes go from the file to the socket by sendfile(2), without passing
// through user space, after the head is flushed, unless a BodyFilter
// transforms the body. Short bodies that fit in
// the write buffer are copied into it instead, so a small file leaves with
// its head in one write.
func (w *BodyWriter) ReadFrom(r io.Reader) (int64, error) { return w.readFromN(r, -1) }

// ReadFromN is ReadFrom copying at most n bytes of r, as
// ReadFrom(io.LimitReader(r, n)) would, sendfile(2) included, but without
// allocating the wrapper: for sending a section of a file (a byte range)
// after seeking to its start. It reads no further than n bytes, so r is
// left just past the bytes copied; fewer than n (r ended first) is not an
// error here (see ReadFrom). A negative n copies nothing.
func (w *BodyWriter) ReadFromN(r io.Reader, n int64) (int64, error) {
	return w.readFromN(r, max(n, 0))
}

// readFromN is ReadFrom reading at most limit bytes of r (all of it when
// limit < 0), without wrapping r.
func (w *BodyWriter) readFromN(r io.Reader, limit int64) (int64, error) {
	n, err := w.copyFrom(r, limit)
	w.sent += n
	return n, err
}

// copyFrom is readFromN before counting.
func (w *BodyWriter) copyFrom(r io.Reader, limit int64) (int64, error) {
	if !w.started {
		w.begin()
	}
	if w.err != nil {
		return 0, w.err
	}
	if w.filtering {
		if limit >= 0 {
			r = io.LimitReader(r, limit)
		}
		return w.readFiltered(r)
	}
	if w.plan.framing == wire.FramingNone || w.plan.omitBody {
		return 0, nil
	}
	if w.plan.framing == wire.FramingLength {
		if limit < 0 || limit > w.remaining {
			limit = w.remaining
		}
		return w.readLength(r, limit)
	}
	return w.readUnsized(r, limit)
}

// readLength copies up to limit (at most w.remaining) bytes of r: into
// the write buffer when they fit, else by sendfile when the connection
// and r allow it, else through the write buffer.
func (w *BodyWriter) readLength(r io.Reader, limit int64) (int64, error) {
	c := w.c
	b := c.writeBuf()
	var n int64
	var err error
	tc, isTCP := c.nc.(*net.TCPConn)
	switch {
	case limit <= int64(cap(b.b)-len(b.b)):
		n, err = c.readIntoBuffer(r, limit, false)
	case isTCP && isFile(r):
		n, err = c.sendFile(tc, r, limit)
	default:
		n, err = c.readIntoBuffer(r, limit, false)
	}
	w.remaining -= n
	return n, w.setErr(err)
}

// readUnsized copies up to limit bytes of r (all of it when limit < 0),
// as chunks for the chunked coding or as is for a body delimited by
// closing the connection.
func (w *BodyWriter) readUnsized(r io.Reader, limit int64) (int64, error) {
	n, err := w.c.readIntoBuffer(r, limit, w.plan.framing == wire.FramingChunked)
	return n, w.setErr(err)
}

// setErr records a write error as sticky and returns the error for the
// caller: the write error, else err from reading r (io.EOF is the end of
// r, not an error).
func (w *BodyWriter) setErr(err error) error {
	if w.c.werr != nil {
		w.err = w.c.werr
		return w.err
	}
	if err == io.EOF {
		return nil
	}
	return err
}

// isFile reports whether r is an *os.File, directly or under an
// *io.LimitedReader, or another reader with a file descriptor (the
// wrapper io.Copy hands over when it starts from File.WriteTo): what
// net.TCPConn.ReadFrom tries to send by sendfile.
func isFile(r io.Reader) bool {
	if lr, ok := r.(*io.LimitedReader); ok {
		r = lr.R
	}
	switch r.(type) {
	case *os.File, syscall.Conn:
		return true
	}
	return false
}

// sendFile flushes the head and buffered bytes, then sends up to limit
// bytes of the file r (an *os.File or an *io.LimitedReader of one) by the
// socket's ReadFrom, in chunks of sendfileChunk each under WriteTimeout
// and MinResponseRate.
// It returns io.EOF when r ends before limit.
func (c *conn) sendFile(tc *net.TCPConn, r io.Reader, limit int64) (int64, error) {
	if c.flush() != nil {
		return 0, nil
	}
	outer, _ := r.(*io.LimitedReader)
	if outer != nil { // net unwraps one LimitedReader only
		r, limit = outer.R, min(limit, outer.N)
	}
	lr := &io.LimitedReader{R: r}
	var total int64
	var err error
	for total < limit {
		lr.N = min(limit-total, sendfileChunk)
		want := lr.N
		n, werr := c.sendChunk(tc, lr)
		total += n
		if werr != nil {
			c.werr = werr
			break
		}
		if n < want {
			err = io.EOF
			break
		}
	}
	if outer != nil {
		outer.N -= total
	}
	return total, err
}

// readIntoBuffer copies up to limit bytes of r (all of it when limit < 0)
// by reading straight into the write buffer's free space and flushing when
// it is full: no buffer of its own. For the chunked coding each read
// becomes one chunk.
func (c *conn) readIntoBuffer(r io.Reader, limit int64, chunked bool) (int64, error) {
	const sizeRoom = 16 + 2 // chunk-size line before the data, CRLF after
	var total int64
	for limit < 0 || total < limit {
		b := c.writeBuf()
		if cap(b.b)-len(b.b) < minReadRoom && c.flush() != nil {
			return total, nil
		}
		start := len(b.b)
		room := b.b[start:cap(b.b)]
		if chunked {
			room = room[sizeRoom : len(room)-2]
		}
		if limit >= 0 && int64(len(room)) > limit-total {
			room = room[:limit-total]
		}
		n, err := r.Read(room)
		if n > 0 {
			total += int64(n)
			if chunked {
				b.b = appendChunk(b.b, room[:n])
			} else {
				b.b = b.b[:start+n]
			}
		}
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// appendChunk appends one chunk whose data already sits in dst's spare
// capacity, a few bytes past len(dst): the chunk-size line is appended and
// the data moved up to follow it.
func appendChunk(dst, data []byte) []byte {
	var size [16]byte
	line := wire.AppendChunkSize(size[:0], len(data))
	start := len(dst)
	dst = dst[:start+len(line)+len(data)]
	copy(dst[start+len(line):], data)
	copy(dst[start:], line)
	return append(dst, "\r\n"...)
}

// sendChunk sends lr by the socket's ReadFrom (sendfile) as one write
// under the deadlines conn.write keeps: WriteTimeout and MinResponseRate
// (a timeout is judged by afterWriteTimeout, and the rest of lr is sent
// when the client is keeping up).
func (c *conn) sendChunk(tc *net.TCPConn, lr *io.LimitedReader) (int64, error) {
	c.writes++
	c.armWrite()
	var sent int64
	for {
		n, err := tc.ReadFrom(lr)
		sent += n
		c.nwritten += n // for RequestInfo.BytesWritten
		if err == nil || !isTimeout(err) {
			return sent, err
		}
		if err = c.afterWriteTimeout(int(n), err); err != nil {
			return sent, err
		}
		if lr.N == 0 {
			return sent, nil
		}
	}
}
