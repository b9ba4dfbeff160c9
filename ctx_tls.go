package brisk

import "crypto/tls"

// TLS returns the state of the connection's TLS session: the version, the
// cipher suite, the protocol ALPN chose, the SNI server name, and for
// mTLS the client's certificates (PeerCertificates) and, when the server
// verified them (tls.Config.ClientAuth, ClientCAs), the chains to its
// roots (VerifiedChains). It is nil on a cleartext connection. The state
// is shared by every request of the connection and never changes: read
// it, do not modify it; it may be kept after the handler returns.
func (c *Ctx) TLS() *tls.ConnectionState { return c.c.tls }

// tlsConn is a connection that carries the TLS state of another one: the
// in-memory connection of a request bridged from net/http
// (Server.HTTPHandler), whose TLS state is the request's (http.Request.TLS,
// nil for cleartext).
type tlsConn interface{ connTLS() *tls.ConnectionState }

func (c bridgedConn) connTLS() *tls.ConnectionState { return c.tls }
