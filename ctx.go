package brisk

import (
	"context"
	"log/slog"
	"net"
)

// Ctx is one request/response exchange, passed to the Handler.
//
// A Ctx IS VALID ONLY UNTIL THE HANDLER RETURNS. The server reuses it, and
// the buffers its request slices point into, for the next request: do not
// keep c, c.Request, c.Response or any slice obtained from them after the
// handler returns, and do not hand them to a goroutine that outlives it.
// Copy what you need.
type Ctx struct {
	// Request is the received request.
	Request Request
	// Response is the response to send.
	Response Response

	c   *conn
	bw  BodyWriter
	ctx context.Context

	route routeState // the route pattern and path parameters a router set, Key values
}

// Context returns a context that is cancelled when the server shuts down
// and, when Server.CancelOnClientClose is set, when the client closes the
// connection. Like the Ctx, do not use it after the handler returns.
func (c *Ctx) Context() context.Context { return c.ctx }

// RemoteAddr returns the client's network address: the source address of
// the connection's PROXY header when it had one (see Server.ProxyProtocol
// and PeerAddr), else the connection's peer address.
func (c *Ctx) RemoteAddr() net.Addr { return c.c.remoteAddr() }

// LocalAddr returns the server's network address for this connection.
func (c *Ctx) LocalAddr() net.Addr { return c.c.nc.LocalAddr() }

// Logger returns the Server's logger.
func (c *Ctx) Logger() *slog.Logger { return c.c.srv.logger }

// BodyWriter returns the writer that streams the response body. The
// response head (status, fields) is sent on its first Write or Flush,
// followed by anything already in the buffered body; change neither after
// that. Without a Content-Length field set by the handler, the body uses
// the chunked transfer coding (RFC 9112 §7.1), or, for an HTTP/1.0 client,
// is delimited by closing the connection. With one, exactly that many
// bytes must be written, else the connection is closed. For HEAD, writes
// are discarded and the head carries a Content-Length only when the
// handler set one (RFC 9110 §9.3.2).
func (c *Ctx) BodyWriter() *BodyWriter { return &c.bw }
