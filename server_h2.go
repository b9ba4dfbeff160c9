package brisk

import (
	"bytes"
	"context"
	"net"
	"strings"
	"time"
)

// ConnServer serves whole connections in a protocol other than HTTP/1.1,
// handed over by the Server once the protocol is known: Server.HTTP2 is
// one. Package github.com/brisk-http/brisk/h2 implements it with
// golang.org/x/net/http2, so that programs without HTTP/2 do not link it.
// An implementation may also have a Drain() method, which Server.Drain
// calls every few milliseconds: like Shutdown, but the requests' contexts
// stay intact. And it may have a method ServeConnContext(ctx
// context.Context, nc net.Conn), which the Server then calls instead of
// ServeConn: ctx, never cancelled, carries what the Server knows of the
// connection (its TCP peer, its PROXY header); a request served through
// Server.HTTPHandler with a context that has ctx's values (those of a
// context derived from it) reports them in Ctx.PeerAddr and Ctx.Proxy,
// as a request on HTTP/1.1 does.
type ConnServer interface {
	// ServeConn serves nc until the connection ends. The Server calls it
	// on the connection's goroutine: for TLS after the handshake (nc is
	// the *tls.Conn, whose ConnectionState has the protocol ALPN chose),
	// for prior-knowledge h2c with nc giving back the bytes the Server
	// already read (the preface) before the rest of the input. After a
	// PROXY header (Server.ProxyProtocol), nc.RemoteAddr is the header's
	// source, the client's, as Ctx.RemoteAddr is for HTTP/1.1. The Server
	// closes nc once ServeConn returns; until then the connection counts
	// towards MaxConns and Shutdown waits for it.
	ServeConn(nc net.Conn)

	// Shutdown asks every connection being served to end gracefully (for
	// HTTP/2, a GOAWAY frame and a close once its streams end, RFC 9113
	// §6.8) and returns without waiting. Server.Shutdown calls it every
	// few milliseconds until the connections have ended (so one handed
	// over while it began is not missed): it must be cheap to repeat.
	Shutdown()
}

// drainConns asks the handed-over connections to take no new requests
// and end once their open ones finish, without cancelling them
// (Server.Drain, at each of its polls), when Server.HTTP2 has a Drain
// method for it: cheap to repeat, like ConnServer.Shutdown.
func (s *Server) drainConns() {
	if d, ok := s.HTTP2.(interface{ Drain() }); ok {
		d.Drain()
	}
	s.drainAttached()
}

// h2Preface is the client connection preface of HTTP/2 (RFC 9113 §3.4).
const h2Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

// http2PrefaceLine is the request line that opens the HTTP/2 connection
// preface, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" (RFC 9113 §3.4), sent by a
// client that speaks HTTP/2 with prior knowledge.
const http2PrefaceLine = "PRI * HTTP/2.0\r\n"

// isHTTP2Preface reports whether in, a connection's input from the start
// of a request, begins with the HTTP/2 connection preface. Unless H2C
// and HTTP2 are set (then checkPreface hands the connection over), the
// preface is answered 505 (HTTP Version Not Supported, RFC 9110 §15.6.6) like any
// HTTP/2.0 request line, where the request-target "*" with method PRI
// alone would be a 400.
func isHTTP2Preface(in []byte) bool {
	return bytes.HasPrefix(in, []byte(http2PrefaceLine))
}

// checkPreface reads a cleartext connection's first bytes and, when they
// are the HTTP/2 preface, hands the connection to Server.HTTP2. It reports
// whether to serve HTTP/1.1: the bytes read stay buffered for the first
// request then. The first read waits like any idle connection
// (IdleTimeout); the rest of a partial preface must come within
// ReadHeaderTimeout.
func (c *conn) checkPreface() bool {
	// Input after a PROXY header may be buffered already: no wait then.
	if c.in.Len() == 0 && c.awaitRequest() != nil {
		return false
	}
	for timed := false; ; timed = true {
		in := c.in.Buffered()
		if !strings.HasPrefix(h2Preface, string(in[:min(len(in), len(h2Preface))])) {
			return true
		}
		if len(in) >= len(h2Preface) {
			read := bytes.Clone(in)
			c.releaseBuffers()
			// The wait for the preface armed a read deadline; x/net sets
			// its own (IdleTimeout, ReadTimeout) and clears none it did
			// not set (CVE-2026-56853's shape).
			c.nc.SetReadDeadline(time.Time{})
			return c.serveHTTP2(&replayConn{Conn: c.nc, pending: read, remote: c.ownRemoteAddr()}, c.nc.RemoteAddr(), nil)
		}
		if !timed {
			c.setReadTimeout(c.lim.readHeaderTimeout)
		}
		if c.in.Fill(0, c.lim.maxHeader) != nil {
			return false
		}
	}
}

// serveHTTP2 hands nc, whose TCP peer is peer, to Server.HTTP2 and
// returns false (nothing more to serve on it). After Shutdown closed the
// idle c, or once it has begun, nc is closed unserved. Under TLS after a
// PROXY header, rc is the connection below the TLS: its RemoteAddr is
// the client's while HTTP/2 serves nc (as for h2c), the peer's when
// ConnState sees it.
func (c *conn) serveHTTP2(nc net.Conn, peer net.Addr, rc *replayConn) bool {
	c.state.CompareAndSwap(stateIdle, stateActive)
	if c.state.Load() != stateActive || c.srv.closing.Load() {
		return false
	}
	c.hookState(StateActive) // the connection's streams are not reported
	if rc != nil {
		rc.remote = c.ownRemoteAddr()
		defer func() { rc.remote = peer }()
	}
	if cs, ok := c.srv.HTTP2.(connContextServer); ok {
		cs.ServeConnContext(c.handoverContext(peer), nc)
	} else {
		c.srv.HTTP2.ServeConn(nc)
	}
	return false
}

// connContextServer is a ConnServer that serves a connection's requests
// under a context carrying the connection's facts (see ConnServer).
type connContextServer interface {
	ServeConnContext(ctx context.Context, nc net.Conn)
}

// shutdownConns asks the handed-over connections to end gracefully
// (Server.Shutdown, at each of its polls).
func (s *Server) shutdownConns() {
	if s.HTTP2 != nil {
		s.HTTP2.Shutdown()
	}
	s.shutdownAttached()
}

// ownRemoteAddr returns the client's address (remoteAddr) in storage of
// its own: a PROXY header's source is kept in c's header storage, which
// the next connection served by c reuses, while a connection handed over
// may outlive c's use of it.
func (c *conn) ownRemoteAddr() net.Addr {
	if a, ok := c.remoteAddr().(*net.TCPAddr); ok {
		return &net.TCPAddr{IP: bytes.Clone(a.IP), Port: a.Port, Zone: a.Zone}
	}
	return c.remoteAddr()
}

// replayConn is a connection whose first reads return bytes already read
// from it, and whose RemoteAddr is remote: the client's, after a PROXY
// header (under TLS, the peer's until negotiate hands the connection to
// HTTP/2: Ctx.PeerAddr reads it).
type replayConn struct {
	net.Conn
	pending []byte
	remote  net.Addr
}

func (r *replayConn) RemoteAddr() net.Addr { return r.remote }

func (r *replayConn) Read(p []byte) (int, error) {
	if len(r.pending) == 0 {
		return r.Conn.Read(p)
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}
