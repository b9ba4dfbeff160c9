package brisk

import "time"

// Lingering close. Closing a TCP connection whose receive queue holds
// unread bytes makes the kernel send a reset (RST) instead of a FIN and
// drop what is still queued for sending, and the client's stack may
// discard the response it has not read yet: a client still uploading a
// body the server refused (413), or still sending after a 400, may never
// see the answer. So when the server closes a connection while the client
// may still be sending, it half-closes first (the response, then FIN),
// discards input until the client closes its side, and only then closes.
const (
	// lingerTimeout bounds a lingering close: the server waits at most this
	// long after the response for the client to close its side, then
	// closes (Shutdown waits for it too).
	lingerTimeout = 500 * time.Millisecond

	// maxLingerBytes bounds the input discarded during a lingering close,
	// in bytes. Past it, the server stops reading (the client's flow
	// control stalls it) and waits out lingerTimeout before closing.
	maxLingerBytes = 256 << 10 // 256 KiB
)

// closeWriter is a connection that can half-close its sending side, like
// *net.TCPConn and *net.UnixConn.
type closeWriter interface{ CloseWrite() error }

// lingerClose flushes the last response, half-closes c and discards
// input until EOF, an error, lingerTimeout or maxLingerBytes, so that the
// Close that follows does not reset a connection the client is still
// sending on. The discarded input goes through one pooled read buffer,
// held only while lingering, so that idle connections carry no discard
// storage. After a write error, or on a
// connection that cannot half-close, it only flushes.
func (c *conn) lingerClose() {
	if c.flush() != nil {
		return
	}
	cw, ok := c.nc.(closeWriter)
	if !ok {
		return
	}
	c.releaseBuffers()
	if cw.CloseWrite() != nil {
		return
	}
	buf := c.srv.pools.getReadBuf()
	defer c.srv.pools.putReadBuf(buf)
	deadline := time.Now().Add(lingerTimeout)
	c.nc.SetReadDeadline(deadline)
	c.deadline = deadline.UnixNano()
	for n := 0; n < maxLingerBytes; {
		k, err := c.nc.Read(buf.b)
		n += k
		if err != nil {
			return
		}
	}
	time.Sleep(time.Until(deadline))
}

// clientMaySend reports whether the client may still be sending when the
// server closes after a response: the request body was not read to its
// end, input is already buffered (a pipelined request), or the request did
// not announce that the client closes (RFC 9112 §9.6) so it may pipeline.
func (c *conn) clientMaySend() bool {
	return c.in.Len() > 0 || c.body.err != nil || !c.body.complete() ||
		c.ctx.Request.head.KeepAlive()
}
