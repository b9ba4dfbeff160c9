package brisk

import (
	"net"
	"runtime"

	"github.com/brisk-http/brisk/wire"
)

// A handler that panics. Before any byte of its response has left the
// server, the response is replaced by a 500. After, the response is cut
// short so that it looks cut short (RFC 9112 §8): no last-chunk for a
// chunked body, no padding for a Content-Length body, and a reset (RST)
// instead of a FIN for a body delimited by closing the connection, whose
// normal end a FIN would mean. Either way the connection is closed.

// maxPanicStack bounds the stack trace logged for a handler panic, in
// bytes; a deeper stack is truncated.
const maxPanicStack = 8 << 10

// handlerPanicked handles a panic p recovered from the handler.
func (c *conn) handlerPanicked(p any) {
	c.keepAlive = false
	c.logPanic(p)
	w := &c.ctx.bw
	if w.started && !w.unsend() {
		w.abort()
		return
	}
	c.ctx.Response.setError(500)
}

// logPanic logs p with the request's method and target (escaped, see
// logSafe) and the panicking goroutine's stack, up to maxPanicStack bytes.
func (c *conn) logPanic(p any) {
	stack := make([]byte, maxPanicStack)
	stack = stack[:runtime.Stack(stack, false)]
	r := &c.ctx.Request
	c.srv.logger.Error("brisk: handler panic", "panic", p, "remote", c.nc.RemoteAddr().String(),
		"method", logSafe(r.Method()), "target", logSafe(r.Target()), "stack", string(stack))
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
