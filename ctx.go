package brisk

import (
	"context"
	"crypto/tls"
	"log/slog"
	"net"
	"time"

	"github.com/brisk-http/brisk/proxyproto"
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

	inErrorHandler bool // an ErrorHandler runs: Ctx.Error inside it gives the default body (errorhook.go)
}

// Context returns a context that is cancelled when the server shuts down
// and, unless Server.IgnoreClientClose is set, when the client closes the
// connection while the handler runs. Like the Ctx, do not use it after the handler returns.
func (c *Ctx) Context() context.Context {
	if c.c != nil {
		c.c.askWatch()
	}
	return c.ctx
}

// RemoteAddr returns the client's network address: the source address of
// the connection's PROXY header when it had one (see Server.ProxyProtocol
// and PeerAddr), else the connection's peer address.
func (c *Ctx) RemoteAddr() net.Addr { return c.c.remoteAddr() }

// LocalAddr returns the server's network address for this connection.
func (c *Ctx) LocalAddr() net.Addr { return c.c.nc.LocalAddr() }

// Logger returns the Server's logger.
func (c *Ctx) Logger() *slog.Logger { return c.c.srv.logger }

// CoarseNow returns the time of the Server's clock of one-second
// resolution, the one that stamps the Date field: at most about a second
// behind time.Now and cheaper (an atomic load, no clock read), for
// intervals of a second or more measured per request, such as the age of
// a cache entry. It carries no monotonic clock reading. Until the Server
// starts serving it is time.Now.
func (c *Ctx) CoarseNow() time.Time {
	if c.c == nil {
		return time.Now()
	}
	return time.Unix(0, c.c.srv.date.coarseUnixNano())
}

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

// TLS returns the state of the connection's TLS session: the version, the
// cipher suite, the protocol ALPN chose, the SNI server name, and for
// mTLS the client's certificates (PeerCertificates) and, when the server
// verified them (tls.Config.ClientAuth, ClientCAs), the chains to its
// roots (VerifiedChains). It is nil on a cleartext connection. The state
// is shared by every request of the connection and never changes: read
// it, do not modify it; it may be kept after the handler returns.
func (c *Ctx) TLS() *tls.ConnectionState { return c.c.tls }

// Proxy returns the PROXY header the connection began with, or nil when
// it had none (ProxyProtocol unset, or an untrusted direct client). It is
// set once per connection, before its first request, and not changed
// afterwards. The header and the slices it returns are owned by the
// connection: valid until the handler returns, like the Ctx.
func (c *Ctx) Proxy() *proxyproto.Header { return c.c.proxy }

// PeerAddr returns the address of the connection's immediate peer: the
// proxy for a connection that began with a PROXY header, else the same
// address as RemoteAddr.
func (c *Ctx) PeerAddr() net.Addr { return c.c.nc.RemoteAddr() }
