// Package h2 serves HTTP/2 on a brisk.Server with the Go team's HTTP/2
// server, golang.org/x/net/http2. brisk keeps its own HTTP/1.1 path and
// hands a connection over when it speaks HTTP/2: over TLS when ALPN
// chose "h2" (RFC 9113 §3.2), and on cleartext, with brisk.Server.H2C,
// when it opens with the HTTP/2 preface ("prior knowledge", RFC 9113
// §3.3). The h2c upgrade from HTTP/1.1 (Upgrade: h2c) is not supported.
//
// It is a separate package so that a program without HTTP/2 does not
// link x/net/http2.
//
//	srv := &brisk.Server{Handler: h}
//	if err := h2.Configure(srv, h2.Config{}); err != nil { ... } // h serves HTTP/2 too
//	srv.ListenAndServeTLS(":443", "cert.pem", "key.pem")
//
// On the client side, Transport gives a brisk.Client or HostClient
// HTTP/2 to "https" origins that choose it by ALPN, with x/net/http2's
// client (see brisk.ClientConfig.HTTP2):
//
//	c := &brisk.Client{ClientConfig: brisk.ClientConfig{HTTP2: &h2.Transport{}}}
package h2

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/limit"
	"golang.org/x/net/http2"
)

//lint:file-ignore SA1019 x/net v0.62.0 deprecates its HTTP/2 server for net/http's (Go 1.27), but on Go 1.26 only http2.Server.ServeConn serves one connection handed over after ALPN

// Config configures the HTTP/2 server. The connection limits come from
// the brisk.Server (see Configure); these are the ones HTTP/2 adds.
type Config struct {
	// Handler serves the HTTP/2 requests. Nil means the brisk.Server's
	// Handler, through brisk.Server.HTTPHandler (each request reaches it
	// as HTTP/1.1 over an in-memory connection, Ctx.TLS included) of a
	// second Server with its per-request configuration; the Handler is
	// read when Configure is called.
	Handler http.Handler

	// MaxConcurrentStreams is the number of streams a client may have
	// open at once on one connection (SETTINGS_MAX_CONCURRENT_STREAMS,
	// RFC 9113 §6.5.2). Zero means x/net/http2's default, 250. A client
	// opening more gets its streams refused (REFUSED_STREAM), and one that
	// keeps doing so has its connection closed.
	MaxConcurrentStreams uint32
}

// maxFrameSize is the largest frame payload a client may send
// (SETTINGS_MAX_FRAME_SIZE): the RFC 9113 §4.2 initial value, 16 KiB,
// instead of x/net/http2's 1 MiB, so that a connection's read buffer
// stays small and a larger frame is the FRAME_SIZE_ERROR every client
// expects before it reads the server's SETTINGS.
const maxFrameSize = 16 << 10

// errNoHandler is Configure's error when there is no handler at all.
var errNoHandler = errors.New("h2: neither Config.Handler nor Server.Handler is set")

// Configure sets srv.HTTP2 to an HTTP/2 server for conf.Handler (nil:
// srv.Handler); call it before srv serves, and after setting srv's
// Handler and limits: it copies them as they are at the call, so a
// Handler wrapped later is not seen by HTTP/2 requests. ServeTLS then offers "h2" by ALPN (unless
// srv.TLSConfig.NextProtos says otherwise), and srv.H2C enables
// prior-knowledge h2c. The brisk.Server limits apply where HTTP/2 has
// them, with brisk's defaults for zero values:
//
//   - MaxHeaderBytes bounds the field section of a request
//     (SETTINGS_MAX_HEADER_LIST_SIZE, with x/net/http2's allowance of
//     320 bytes for its per-field overhead); a larger one is refused
//     with 431.
//   - MaxBodyBytes bounds each request body: a larger Content-Length is
//     answered 413 without calling the handler, a larger body fails its
//     read with a *http.MaxBytesError.
//   - IdleTimeout closes a connection without open streams.
//   - ReadTimeout bounds reading a request body, from its headers.
//   - WriteTimeout bounds each write to the connection.
//   - Frames are at most 16 KiB (SETTINGS_MAX_FRAME_SIZE, the RFC
//     9113 §4.2 initial value, not x/net/http2's 1 MiB).
//   - MaxConns and TLSHandshakeTimeout apply before the hand-over;
//     Shutdown sends GOAWAY, lets open streams finish and cancels the
//     requests' contexts, as for HTTP/1.1.
//
// MaxRequestLineBytes, MaxFields, ReadHeaderTimeout and
// MaxRequestsPerConn have no HTTP/2 counterpart; with Config.Handler nil
// they, IgnoreClientClose (unset, a stream's RST_STREAM cancels its context),
// the data rates, TrustedProxies, ClientIPField and OnRequestDone apply
// to each request as the brisk handler receives it: the Ctx reports
// Proto "HTTP/2.0", RemoteAddr and Proxy from the connection's PROXY
// header, PeerAddr the TCP peer, as on HTTP/1.1, and OnRequestDone is
// called once per stream that reached the handler (see
// brisk.RequestInfo for its byte counts). A stream refused before it
// reaches the handler (REFUSED_STREAM, a field section over
// MaxHeaderBytes) is not reported. With Config.Handler set, the
// requests are net/http's: none of these apply and OnRequestDone is not
// called. x/net/http2's defences
// against frame floods (SETTINGS, PING, RST_STREAM "rapid reset",
// CONTINUATION) are on with its defaults. srv.Logger receives x/net's
// connection errors at warning level.
func Configure(srv *brisk.Server, conf Config) error {
	s := &server{}
	if conf.Handler == nil {
		if srv.Handler == nil {
			return errNoHandler
		}
		s.bridge = newBridge(srv)
		conf.Handler = s.bridge.http
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	logger := srv.Logger
	if logger == nil {
		logger = slog.Default()
	}
	h := conf.Handler
	if s.bridge == nil { // the bridge's Server applies MaxBodyBytes itself
		h = limitBody(h, limit.Bytes(srv.MaxBodyBytes, brisk.DefaultMaxBodyBytes))
	}
	s.h1 = http.Server{
		Handler:        h,
		MaxHeaderBytes: limit.Count(srv.MaxHeaderBytes, brisk.DefaultMaxHeaderBytes),
		ReadTimeout:    max(srv.ReadTimeout, 0),
		ErrorLog:       slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	s.h2 = http2.Server{
		MaxConcurrentStreams: conf.MaxConcurrentStreams,
		MaxReadFrameSize:     maxFrameSize,
		IdleTimeout:          limit.Timeout(srv.IdleTimeout, brisk.DefaultIdleTimeout),
		WriteByteTimeout:     max(srv.WriteTimeout, 0),
	}
	// ConfigureServer ties s.h2's connections to s.h1.Shutdown (GOAWAY).
	if err := http2.ConfigureServer(&s.h1, &s.h2); err != nil {
		return err
	}
	srv.HTTP2 = s
	return nil
}

// server is the brisk.ConnServer of Configure. h1 is never served: it
// carries the configuration x/net/http2 reads from a net/http server,
// and its Shutdown sends GOAWAY on every connection of h2.
type server struct {
	h1     http.Server
	h2     http2.Server
	ctx    context.Context // the requests' base context, cancelled by Shutdown
	cancel context.CancelFunc
	bridge *bridge   // nil with Config.Handler
	once   sync.Once // for bridge.shutdown
}

// ServeConn implements brisk.ConnServer.
func (s *server) ServeConn(nc net.Conn) {
	serveBelow(0, s, s.ctx, nc)
}

// ServeConnContext is called by brisk.Server instead of ServeConn: the
// requests' contexts have the values of ctx (the connection's facts,
// which the bridge reports in Ctx.PeerAddr and Ctx.Proxy) and are
// cancelled by Shutdown.
func (s *server) ServeConnContext(ctx context.Context, nc net.Conn) {
	serveBelow(0, s, valuesOf{s.ctx, ctx}, nc)
}

// valuesOf is a context with the cancellation of its Context and the
// values of vals first, then of its Context.
type valuesOf struct {
	context.Context
	vals context.Context
}

func (c valuesOf) Value(key any) any {
	if v := c.vals.Value(key); v != nil {
		return v
	}
	return c.Context.Value(key)
}

// connStack is the stack, in bytes, that serveBelow holds under each
// HTTP/2 connection it serves. x/net/http2 starts a goroutine for each
// request's handler and for each frame write that flushes, two or three
// per request. The runtime starts a goroutine's stack at the average
// stack in use of the goroutines the last GC saw (adaptive stack start,
// Go 1.19; runtime/metrics /gc/stack/starting-size:bytes), and a
// connection's long-lived goroutines, its reader and this one, wait with
// little in use: the average sat at the edge of a 2 KiB start, and the
// handler and write goroutines that started at 2 KiB grew, copied, their
// stacks down the handler or the TLS write, per request. Waiting with
// 4 KiB more in use on each connection's goroutine keeps the start at
// 4 KiB, which those paths fit in: 13 to 18 % less CPU per request in
// bench/tls.sh's h2 run (h2load -c 50 -m 10), for about 11 KiB more
// stack per idle connection (its goroutine's stack is 16 KiB, not 8,
// and no longer shrinks to 4). With many more streams per connection
// the connections weigh less in the average and the gain shrinks.
const connStack = 4 << 10

// serveBelow serves nc with connStack bytes of stack held below
// x/net/http2's connection loop; i, any value, keeps the frame from
// being optimized away.
//
//go:noinline
func serveBelow(i int, s *server, ctx context.Context, nc net.Conn) byte {
	var buf [connStack]byte
	s.h2.ServeConn(nc, &http2.ServeConnOpts{Context: ctx, BaseConfig: &s.h1})
	return buf[uint(i)%uint(len(buf))]
}

// Shutdown implements brisk.ConnServer: GOAWAY on every connection (each
// is sent once, however often Shutdown is called) and the requests'
// contexts cancelled.
func (s *server) Shutdown() {
	s.cancel()
	s.h1.Shutdown(context.Background()) // returns at once: h1 has no conns of its own
	if s.bridge != nil {
		s.once.Do(s.bridge.shutdown)
	}
}

// Drain is called by brisk.Server.Drain: GOAWAY on every connection
// (each is sent once), whose open streams finish with their contexts
// intact; x/net/http2 closes a connection once they have.
func (s *server) Drain() {
	s.h1.Shutdown(context.Background()) // returns at once: h1 has no conns of its own
}

// limitBody answers a request declaring a body larger than limit with 413
// and bounds the body of the others; limit < 0 means none. A request
// without a body (ContentLength 0) is passed on as it is.
func limitBody(h http.Handler, limit int64) http.Handler {
	if limit < 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength == 0 { // no body, or an empty one (x/net/http2 checks it)
			h.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > limit {
			http.Error(w, "Request Entity Too Large", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		h.ServeHTTP(w, r)
	})
}
