package brisk

import (
	"net"

	"github.com/brisk-http/brisk/internal/stack"
	"github.com/brisk-http/brisk/wire"
)

// A handler that panics. Before any byte of its response has left the
// server, the response is replaced by a 500 (through Server.ErrorHandler,
// with ErrHandlerPanic). After, the response is cut
// short so that it looks cut short (RFC 9112 §8): no last-chunk for a
// chunked body, no padding for a Content-Length body, and a reset (RST)
// instead of a FIN for a body delimited by closing the connection, whose
// normal end a FIN would mean. Either way the connection is closed.

// handlerPanicked handles a panic p recovered from the handler.
func (c *conn) handlerPanicked(p any) {
	c.keepAlive = false
	c.logPanic(p)
	w := &c.ctx.bw
	if w.started && !w.unsend() {
		w.abort()
		return
	}
	c.answerError(500, ErrHandlerPanic)
}

// logPanic logs p with the request's method and target (escaped, see
// logSafe) and the panicking goroutine's stack from the function that
// panicked, one attribute per frame ("stack.0", "stack.1", ...: a group,
// see internal/stack), so that it is not one line of escaped newlines.
func (c *conn) logPanic(p any) {
	r := &c.ctx.Request
	c.srv.logger.Error("brisk: handler panic", "panic", p, "remote", c.nc.RemoteAddr().String(),
		"method", logSafe(r.Method()), "target", logSafe(r.Target()), "stack", stack.Capture(0))
}

// logSafe returns b for a log record, with every byte that is not visible
// ASCII, and the backslash, written as \xHH: a log line never carries raw
// client bytes (CR, LF, escape sequences, invalid UTF-8).
func logSafe(b []byte) string {
	const hex = "0123456789abcdef"
	i := 0
	for i < len(b) && b[i] > ' ' && b[i] < 0x7f && b[i] != '\\' {
		i++
	}
	if i == len(b) {
		return string(b)
	}
	out := append(make([]byte, 0, len(b)+16), b[:i]...)
	for _, ch := range b[i:] {
		if ch > ' ' && ch < 0x7f && ch != '\\' {
			out = append(out, ch)
		} else {
			out = append(out, '\\', 'x', hex[ch>>4], hex[ch&15])
		}
	}
	return string(out)
}

// closeAborted closes a connection whose close-delimited response was cut
// short with a reset, so that the client cannot take the end of the
// connection for the end of the body. It reports whether it applied: only
// for an aborted close-delimited response on a TCP connection.
func (c *conn) closeAborted() bool {
	w := &c.ctx.bw
	tc, ok := c.nc.(*net.TCPConn)
	if !ok || !w.aborted() || w.plan.framing != wire.FramingClose {
		return false
	}
	c.flush()
	tc.SetLinger(0) // Close sends RST
	return true
}
