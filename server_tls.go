package brisk

import (
	"bytes"
	"crypto/tls"
	"errors"
	"net"
	"time"

	"github.com/brisk-http/brisk/internal/limit"
	"github.com/brisk-http/brisk/internal/listen"
)

// DefaultTLSHandshakeTimeout is the TLS handshake timeout used when
// Server.TLSHandshakeTimeout is zero.
const DefaultTLSHandshakeTimeout = 10 * time.Second

// ALPN protocol IDs (RFC 7301; RFC 9113 §3.2).
const (
	protoHTTP2  = "h2"
	protoHTTP11 = "http/1.1"
)

// errNoCertificate is ServeTLS's error for a configuration that cannot
// present a certificate.
var errNoCertificate = errors.New("brisk: ServeTLS needs a certificate: certFile and keyFile, or TLSConfig.Certificates, GetCertificate or GetConfigForClient")

// ListenAndServeTLS listens on the TCP address addr and calls ServeTLS.
func (s *Server) ListenAndServeTLS(addr, certFile, keyFile string) error {
	ln, err := listen.TCP("tcp", addr, nil)
	if err != nil {
		return err
	}
	return s.ServeTLS(ln, certFile, keyFile)
}

// ServeTLS serves HTTPS on ln: every accepted connection does a TLS
// handshake, bounded by TLSHandshakeTimeout, before its first request.
// The configuration is a clone of TLSConfig (nil means an empty one) with
// these defaults:
//
//   - certFile and keyFile, when not empty, name a PEM certificate chain
//     (leaf first) and its private key, added to Certificates. They may be
//     empty when TLSConfig has Certificates, GetCertificate or
//     GetConfigForClient; otherwise ServeTLS returns an error.
//   - A zero MinVersion means TLS 1.2.
//   - Nil NextProtos means ALPN offers "h2" then "http/1.1" when HTTP2 is
//     set, else "http/1.1" alone (RFC 7301). Set NextProtos to choose
//     yourself: []string{"http/1.1"} turns HTTP/2 off.
//
// To reload certificates without a restart, set TLSConfig.GetCertificate
// to a function returning the current certificate (kept behind a mutex or
// an atomic.Pointer, swapped when the files change): each handshake asks
// it, so new connections get the new certificate and open ones keep
// theirs. GetCertificate also serves SNI (ClientHelloInfo.ServerName).
// For client certificates (mTLS), set ClientAuth and ClientCAs; handlers
// see the verified chains in Ctx.TLS. A config returned by
// GetConfigForClient is used as it is, without these defaults.
//
// A failed handshake is logged at debug level and closes the connection;
// no handler sees it. A client that sent plain HTTP is answered 400 first.
// ServeTLS closes ln when it returns, and returns what Serve returns.
func (s *Server) ServeTLS(ln net.Listener, certFile, keyFile string) error {
	cfg, err := s.tlsConfig(certFile, keyFile)
	if err != nil {
		ln.Close()
		return err
	}
	if s.ProxyProtocol != nil {
		return s.Serve(proxyTLSListener{ln, cfg})
	}
	return s.Serve(tls.NewListener(ln, cfg))
}

// tlsConfig returns the configuration ServeTLS documents.
func (s *Server) tlsConfig(certFile, keyFile string) (*tls.Config, error) {
	cfg := &tls.Config{}
	if s.TLSConfig != nil {
		cfg = s.TLSConfig.Clone()
	}
	if certFile != "" || keyFile != "" {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, err
		}
		cfg.Certificates = append(cfg.Certificates, cert)
	}
	if len(cfg.Certificates) == 0 && cfg.GetCertificate == nil && cfg.GetConfigForClient == nil {
		return nil, errNoCertificate
	}
	if cfg.MinVersion == 0 {
		cfg.MinVersion = tls.VersionTLS12
	}
	if cfg.NextProtos == nil {
		cfg.NextProtos = []string{protoHTTP11}
		if s.HTTP2 != nil {
			cfg.NextProtos = []string{protoHTTP2, protoHTTP11}
		}
	}
	return cfg, nil
}

// negotiate runs before a connection's first request and reports whether
// to serve HTTP/1.1 on it. A TLS connection completes its handshake (see
// handshake); a connection whose protocol is HTTP/2, by ALPN or by the h2c
// preface, is handed to Server.HTTP2 and served to its end here, with
// RemoteAddr the client's (a PROXY header's source) on either path. A
// bridged request's connection (Server.HTTPHandler) takes the TLS state
// of the request it carries.
func (c *conn) negotiate() bool {
	c.http2, c.h3 = false, false
	if tc, ok := c.nc.(tlsConn); ok {
		c.tls = tc.connTLS()
		if bf, ok := c.nc.(bridgedFacts); ok && c.proxy == nil {
			c.http2, c.h3, c.proxy = bf.connFacts()
		}
		return true
	}
	if tc, ok := c.nc.(*tls.Conn); ok {
		if !c.handshake(tc) {
			return false
		}
		if c.tls.NegotiatedProtocol == protoHTTP2 && c.srv.HTTP2 != nil {
			rc, _ := tc.NetConn().(*replayConn) // after a PROXY header (startTLS)
			return c.serveHTTP2(tc, tc.RemoteAddr(), rc)
		}
		return true
	}
	if c.srv.H2C && c.srv.HTTP2 != nil {
		return c.checkPreface()
	}
	return true
}

// handshake completes the TLS handshake within TLSHandshakeTimeout and
// keeps the connection state for Ctx.TLS. A failure is logged at debug
// level, and a client that spoke plain HTTP is answered 400.
//
// A TLS connection is never peeked at: crypto/tls reads the socket ahead
// (a request can arrive with the handshake's last flight, and a Read
// returns one record of several received), so a request can wait in the
// *tls.Conn while the socket is empty, and the idle wait would sleep on
// a client that has sent. A *tls.Conn has no SyscallConn, so attach left
// c.raw nil; clearing it here states the rule.
func (c *conn) handshake(tc *tls.Conn) bool {
	c.raw = nil
	if d := limit.Timeout(c.srv.TLSHandshakeTimeout, DefaultTLSHandshakeTimeout); d > 0 {
		tc.SetDeadline(time.Now().Add(d))
	}
	err := tc.Handshake()
	tc.SetDeadline(time.Time{})
	if err != nil {
		c.srv.logger.Debug("brisk: TLS handshake failed", "remote", tc.RemoteAddr().String(), "err", err)
		var rh tls.RecordHeaderError
		if errors.As(err, &rh) && rh.Conn != nil && looksLikeHTTP(rh.RecordHeader[:]) {
			rh.Conn.SetWriteDeadline(time.Now().Add(time.Second))
			rh.Conn.Write(plainHTTPToTLS)
		}
		return false
	}
	st := tc.ConnectionState()
	c.tls = &st
	return true
}

// plainHTTPToTLS answers a plain HTTP request sent to a TLS port.
var plainHTTPToTLS = []byte("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n" +
	"Connection: close\r\nContent-Length: 48\r\n\r\nClient sent an HTTP request to an HTTPS server.\n")

// looksLikeHTTP reports whether the first five bytes of a connection,
// taken for a TLS record header, start a common HTTP/1.x request.
func looksLikeHTTP(hdr []byte) bool {
	switch string(hdr) {
	case "GET /", "HEAD ", "POST ", "PUT /", "OPTIO", "DELET", "PATCH":
		return true
	}
	return false
}

// proxyTLSListener is the listener of ServeTLS with ProxyProtocol set:
// the PROXY header comes before the TLS handshake (HAProxy in TCP mode
// with send-proxy), so its connections are marked for TLS after the
// header (startTLS) rather than wrapped in TLS at the accept.
type proxyTLSListener struct {
	net.Listener
	cfg *tls.Config
}

func (l proxyTLSListener) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &proxyTLSConn{Conn: nc, cfg: l.cfg}, nil
}

// proxyTLSConn is an accepted connection that starts TLS after its PROXY
// header.
type proxyTLSConn struct {
	net.Conn
	cfg *tls.Config
}

// startTLS begins TLS on a connection of proxyTLSListener once its PROXY
// header was read in cleartext: the bytes buffered after the header are
// the start of the handshake. The *tls.Conn's RemoteAddr is the peer's
// (Ctx.PeerAddr) until negotiate hands the connection to HTTP/2. It
// reports false when Shutdown closed the connection meanwhile.
func (c *conn) startTLS(pc *proxyTLSConn) bool {
	wasIdle := c.state.CompareAndSwap(stateIdle, stateActive) // Shutdown closes idle conns
	if !wasIdle && c.state.Load() != stateActive {
		return false
	}
	rest := bytes.Clone(c.in.Buffered())
	c.in.Discard()
	c.readMark = c.consumed() // the handshake's bytes are no request's (OnRequestDone)
	c.nc = tls.Server(&replayConn{Conn: pc.Conn, pending: rest, remote: pc.Conn.RemoteAddr()}, pc.cfg)
	c.raw = nil
	return !wasIdle || c.setIdle()
}
