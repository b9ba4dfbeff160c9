// Package h3 serves HTTP/3 (RFC 9114) for a brisk.Server with quic-go's
// HTTP/3 server, github.com/quic-go/quic-go/http3, on a UDP socket next
// to the Server's TCP listeners. Each request reaches the Server's
// Handler through brisk.Server.HTTPHandler, the bridge the h2 package
// uses: the Ctx reports Proto "HTTP/3.0", RemoteAddr the client's UDP
// address, TLS the QUIC connection's TLS state, and OnRequestDone is
// called once per request that reached the Handler.
//
// It is a module of its own, so that programs without HTTP/3 do not
// link quic-go.
//
//	srv := &brisk.Server{Handler: h, TLSConfig: tlsConf}
//	s3, err := h3.Configure(srv, h3.Config{})
//	srv.Handler = s3.AltSvc(srv.Handler) // advertise HTTP/3 on TCP
//	go s3.ListenAndServe(":443")         // UDP
//	srv.ListenAndServeTLS(":443", "", "") // TCP
package h3

import (
	"crypto/tls"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/limit"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

// quicTimeout is a brisk timeout d (0: none) as quic-go takes it, where 0
// is its default: none is a year.
func quicTimeout(d time.Duration) time.Duration {
	if d == 0 {
		return 365 * 24 * time.Hour
	}
	return d
}

// DefaultMaxConcurrentStreams is the number of request streams a client
// may have open at once on one connection when Config.MaxConcurrentStreams
// is zero: quic-go's default.
const DefaultMaxConcurrentStreams = 100

// Config configures the HTTP/3 server. The limits come from the
// brisk.Server (see Configure); these are the ones HTTP/3 adds.
type Config struct {
	// TLSConfig holds the certificates. Nil means the brisk.Server's
	// TLSConfig. Its NextProtos are replaced with "h3" (RFC 9114 §3.1);
	// QUIC requires TLS 1.3, whatever MinVersion says.
	TLSConfig *tls.Config

	// MaxConcurrentStreams is the number of request streams a client may
	// have open at once on one connection (the QUIC
	// initial_max_streams_bidi transport parameter, RFC 9000 §18.2). Zero
	// means DefaultMaxConcurrentStreams (100); negative is an error. A
	// client cannot open more: QUIC flow control makes it wait.
	MaxConcurrentStreams int

	// AltSvcPort is the UDP port the Alt-Svc field (Server.AltSvc)
	// advertises (RFC 7838 §3). Zero means the port of the socket served
	// last (Serve, ListenAndServe); set it when a firewall or load
	// balancer maps another port to it.
	AltSvcPort int

	// AltSvcMaxAge is how long a client may remember the Alt-Svc
	// advertisement (its "ma" parameter, RFC 7838 §3.1), in whole
	// seconds. Zero means 24 hours; negative is an error.
	AltSvcMaxAge time.Duration
}

// Server serves HTTP/3 for one brisk.Server. It is safe for concurrent
// use.
type Server struct {
	h3      http3.Server
	bridge  *brisk.Server // serves each request with the brisk.Server's Handler
	handler http.Handler  // bridge.HTTPHandler()
	count   func(delta int) bool
	altSvc  atomic.Pointer[string] // the Alt-Svc field value; nil until known
	conf    Config

	mu        sync.Mutex
	sockets   []closer            // the sockets of ListenAndServe, closed after Shutdown
	conns     map[*qconn]struct{} // the connections served
	goAwayAt  time.Time           // when the graceful shutdown began; zero before
	graceOnce sync.Once           // Drain or Shutdown: GOAWAY
	stopOnce  sync.Once           // Shutdown: requests' contexts cancelled
	done      chan struct{}       // closed once the graceful shutdown ended
}

// closer is a socket to close.
type closer interface{ Close() error }

var (
	errNoHandler = errors.New("h3: Server.Handler is not set")
	errNoTLS     = errors.New("h3: neither Config.TLSConfig nor Server.TLSConfig has a certificate")
	errNegative  = errors.New("h3: Config.MaxConcurrentStreams and AltSvcMaxAge must not be negative")
)

// Configure returns an HTTP/3 server for srv's Handler, tied to srv's
// lifetime (brisk.Server.Attach): srv.Shutdown sends GOAWAY on every
// HTTP/3 connection (RFC 9114 §5.2), cancels the requests' contexts and
// waits, as for its own connections, for the HTTP/3 connections to
// close; srv.Drain sends GOAWAY at once and lets the open requests finish
// with their contexts intact. Call it after setting srv's Handler and
// limits (they are copied, as h2.Configure copies them) and before srv
// serves. The brisk.Server's limits map to HTTP/3 as follows, with
// brisk's defaults for zero values:
//
//   - MaxHeaderBytes bounds the request's HEADERS frame
//     (SETTINGS_MAX_FIELD_SECTION_SIZE, RFC 9114 §7.2.4.1, with
//     the encoded frame's length); a larger one is answered 431 by
//     quic-go, its body refused (H3_EXCESSIVE_LOAD), without the Handler
//     and not reported to OnRequestDone. The bridged head is bounded by
//     it again.
//   - MaxBodyBytes bounds each request body: a larger Content-Length is
//     answered 413 without calling the Handler, a longer body fails its
//     read, as on HTTP/1.1.
//   - MaxConns counts QUIC connections with the TCP ones: past it a new
//     QUIC connection is closed at once with H3_EXCESSIVE_LOAD (RFC 9114
//     §8.1), as one is after Shutdown began with H3_NO_ERROR.
//   - IdleTimeout closes a connection without open requests (quic-go's
//     http3.Server.IdleTimeout) and is the QUIC idle timeout (RFC 9000
//     §10.1).
//   - TLSHandshakeTimeout bounds the QUIC handshake (quic-go's
//     HandshakeIdleTimeout: no packet for that long, or the handshake
//     not done in twice that, aborts it). 0-RTT is refused, so that no
//     request can be replayed (RFC 9114 §10.9).
//   - ReadTimeout, WriteTimeout, ReadHeaderTimeout, MaxFields,
//     MaxRequestLineBytes, IgnoreClientClose (unset, a stream the
//     client resets cancels the request's context), the data rates
//     (MinRequestBodyRate, MinResponseRate), TrustedProxies,
//     ClientIPField, Name, Logger and OnRequestDone apply to each request
//     as the brisk handler receives it, as for HTTP/2.
//   - MaxRequestsPerConn, ProxyProtocol, H2C, HTTP2, ConnState,
//     NoParkIdle, ParkIdleAfter and CloseHijacked have no HTTP/3 meaning (a QUIC connection is not
//     a TCP one: no PROXY header precedes it, no state is reported);
//     Upgrade, Tunnel and Hijack get a 500, as on HTTP/2.
//
// Ctx.RemoteAddr and PeerAddr are the client's UDP address (its Network
// reads "tcp", as for every bridged request), LocalAddr the socket's.
// A GET, HEAD, OPTIONS, DELETE or TRACE request without Content-Length
// reaches the Handler once its stream's first DATA frame or its end has
// come (clients send the end with the HEADERS frame): without content
// it is a request without a body, as on HTTP/1.1, and the client-close
// watch (unless IgnoreClientClose) covers it at once.
//
// Config.MaxConcurrentStreams bounds the streams per connection.
func Configure(srv *brisk.Server, conf Config) (*Server, error) {
	if srv.Handler == nil {
		return nil, errNoHandler
	}
	if conf.MaxConcurrentStreams < 0 || conf.AltSvcMaxAge < 0 {
		return nil, errNegative
	}
	tlsConf := conf.TLSConfig
	if tlsConf == nil {
		tlsConf = srv.TLSConfig
	}
	if tlsConf == nil || (len(tlsConf.Certificates) == 0 && tlsConf.GetCertificate == nil && tlsConf.GetConfigForClient == nil) {
		return nil, errNoTLS
	}
	s := &Server{conf: conf, bridge: srv.ForBridge(), done: make(chan struct{}), conns: make(map[*qconn]struct{})}
	s.handler = s.bridge.HTTPHandler()
	idle := limit.Timeout(srv.IdleTimeout, brisk.DefaultIdleTimeout)
	streams := conf.MaxConcurrentStreams
	if streams == 0 {
		streams = DefaultMaxConcurrentStreams
	}
	s.h3 = http3.Server{
		TLSConfig:      tlsConf,
		Handler:        http.HandlerFunc(s.serveHTTP),
		MaxHeaderBytes: limit.Count(srv.MaxHeaderBytes, brisk.DefaultMaxHeaderBytes),
		IdleTimeout:    idle,
		Logger:         srv.Logger,
		QUICConfig: &quic.Config{
			MaxIncomingStreams:   int64(streams),
			MaxIdleTimeout:       quicTimeout(idle),
			HandshakeIdleTimeout: quicTimeout(limit.Timeout(srv.TLSHandshakeTimeout, brisk.DefaultTLSHandshakeTimeout)),
			Allow0RTT:            false,
		},
		ConnContext: s.connContext,
	}
	s.count = srv.Attach(s)
	return s, nil
}
