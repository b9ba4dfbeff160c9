package brisk

import (
	"context"
	"crypto/tls"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brisk-http/brisk/internal/listen"
	"github.com/brisk-http/brisk/wire"
)

// Handler serves one request. The *Ctx and everything reachable from it
// (request fields, body slices, the response) are valid ONLY UNTIL THE
// HANDLER RETURNS: the server then reuses them for the next request. Do not
// retain c or any slice obtained from it, and do not use c from another
// goroutine after returning; copy what you need to keep.
//
// A 2xx response to CONNECT set on the Response is sent without
// Content-Length or Transfer-Encoding (RFC 9110 §9.3.6), its body (if any)
// is delimited by closing the connection, and nothing the client sends
// after the request is parsed; Ctx.Tunnel hands the connection over for
// a tunnel instead. Answer CONNECT with a non-2xx status (e.g. 405) to
// keep the connection.
//
// A Handler that panics is recovered by the server: the panic is logged
// to Server.Logger at error level with the request's method and target
// and the stack (one attribute per frame), and, when none of the
// response has left yet, the response is replaced by a 500 (through
// Server.ErrorHandler, with ErrHandlerPanic); else it is cut short so the
// client sees it incomplete. Either way the connection is closed. A
// panic with http.ErrAbortHandler in a FromHTTP handler is not logged.
type Handler func(c *Ctx)

// Server is an HTTP/1.1 server. Its fields are plain configuration: set
// them before calling Serve and do not change them afterwards. The zero
// value of each field is a documented default.
//
// Pipelined requests (RFC 9112 §9.3.2) are answered in order. On a plain
// TCP or Unix connection whose client waited for each response over its
// first three requests, a request it then sends before the response to
// the previous one may be read up to 2 s late, once: from then on the
// connection is served as a pipelining one, without that delay. A client
// that closes its side while a handler runs is likewise seen up to 2 s
// after the response.
type Server struct {
	// Handler serves each request. Nil answers every request with 404.
	Handler Handler

	// Name is the value of the Server field sent in each response (RFC
	// 9110 §10.2.4). Empty means no Server field.
	Name string

	// Logger receives handler panics, rejected response fields and other
	// server errors. Nil means slog.Default().
	Logger *slog.Logger

	// OnReject, when set, is called for each request answered with an
	// error status before the Handler could run (see Rejection), on the
	// connection's goroutine before the response is sent: keep it short,
	// and do not panic. Nil means such requests are only answered.
	OnReject func(Rejection)

	// ErrorHandler writes every response the server (and Ctx.Error)
	// generates itself: 400, 408, 413, 414, 431, 501 and 505 for bad
	// requests and limits, 500 after a Handler panic, 503 beyond
	// MaxConns, ... (see ErrorHandler for the list, and what it may
	// not do). Nil means the default short plain-text body: the reason
	// phrase and a newline.
	ErrorHandler ErrorHandler

	// JSON plugs another JSON encoder and decoder into Ctx.JSON and
	// Ctx.DecodeJSON. Nil means encoding/json.
	JSON *JSONCodec

	// MaxRequestLineBytes is the largest request line, in bytes, excluding
	// its CRLF. Zero or negative means DefaultMaxRequestLineBytes (8 KiB). A
	// longer one is answered 414 and the connection is closed.
	MaxRequestLineBytes int

	// MaxHeaderBytes is the largest request head (request line, field
	// section and final CRLF), in bytes. Zero or negative means
	// DefaultMaxHeaderBytes (64 KiB). A larger one is answered 431 and the
	// connection is closed. It is independent of ReadBufferSize: the read
	// buffer grows up to this size for a large head. It also bounds the
	// trailer section of a chunked request body (RFC 9112 §7.1.2): its
	// field lines and final CRLF, in bytes (the server does not use the
	// wire package's 8 KiB default). A larger one fails the body read with
	// wire.ErrTrailerTooLarge, is answered 431 unless the response has
	// started, and closes the connection.
	MaxHeaderBytes int

	// MaxFields is the largest number of field lines in a request head or
	// trailer section. Zero or negative means DefaultMaxFields (128). More
	// are answered 431 and the connection is closed.
	MaxFields int

	// MaxBodyBytes is the largest request body, in bytes. Zero means
	// DefaultMaxBodyBytes (4 MiB); negative means no limit. A request whose
	// Content-Length is larger is answered 413 before the handler runs and
	// without reading the body; a chunked body that grows larger makes the
	// body read fail with ErrBodyTooLarge and is answered 413. Either way
	// the connection is closed, after a lingering close that discards up
	// to 256 KiB more input for up to 500 ms so the client sees the
	// response (likewise after every error response).
	MaxBodyBytes int64

	// ReadBufferSize is the initial size of a connection's read buffer, in
	// bytes. Zero or negative means DefaultReadBufferSize (4 KiB).
	ReadBufferSize int

	// WriteBufferSize is the size of a connection's write buffer, in
	// bytes: a connection holds one while it has a response to write, and
	// none while it waits for a request. Responses to pipelined requests
	// are batched into it, so a larger one means fewer writes for them; a
	// body that does not fit is written straight from the response, in one
	// system call with what the buffer holds on TCP. Zero or negative
	// means DefaultWriteBufferSize (4 KiB).
	WriteBufferSize int

	// Read and write timeouts, and the grace periods of the minimum data
	// rates, of 2 s or more are measured with the server's one-second
	// clock: they fire up to about one second late, never early.

	// ReadHeaderTimeout bounds the time to read a request head once its
	// first bytes have arrived (slowloris protection); it is armed when a
	// head needs more than the read that brought its first bytes. Zero
	// means DefaultReadHeaderTimeout (10 s); negative means no limit. On
	// expiry the connection is closed without a response.
	ReadHeaderTimeout time.Duration

	// ReadTimeout bounds the time to read a request body, from the end of
	// its head. Zero or negative means no limit (MinRequestBodyRate still
	// applies). A body read past it fails
	// (a timeout error from Body or BodyReader); unless the response has
	// started, the server answers 408 (RFC 9110 §15.5.9), and it closes the
	// connection.
	ReadTimeout time.Duration

	// WriteTimeout bounds each write of response bytes to the connection.
	// Zero or negative means no limit. On expiry the connection is closed.
	// A buffered body larger than the write buffer is one write, so this
	// bounds the whole body: to cut clients that read too slowly, rely on
	// MinResponseRate instead.
	WriteTimeout time.Duration

	// MinRequestBodyRate is the slowest a client may send a request body,
	// in bytes per second, once it has kept the server waiting for
	// MinRequestBodyRateGrace. Only the time the server waits for body
	// bytes counts, not the handler's time between reads: by time T of
	// waiting, the body must have brought rate × T bytes, or, for T up to
	// the grace period, any. Zero means DefaultMinRequestBodyRate (240
	// bytes/s); negative disables the rule. A slower body fails the read
	// with ErrBodyTooSlow; unless the response has started the server
	// answers 408 (RFC 9110 §15.5.9); the connection is closed. This is
	// what cuts a slow-body attack (one byte every few seconds) by
	// default; ReadTimeout bounds the whole body only when set. On HTTP/2
	// (package h2, Config.Handler nil) it applies to each stream's body,
	// and a slow stream is ended alone (408, or a reset once its response
	// began), not its connection. It does not apply
	// to a TLS handshake (TLSHandshakeTimeout bounds it) nor to a
	// connection a handler took over (Ctx.Hijack clears its deadlines).
	MinRequestBodyRate int

	// MinRequestBodyRateGrace is how long a request body may keep the
	// server waiting before MinRequestBodyRate applies. Zero means
	// DefaultMinRequestBodyRateGrace (5 s); negative disables the rule.
	MinRequestBodyRateGrace time.Duration

	// MinResponseRate is the slowest a client may take a response, in
	// bytes per second: each write to the connection may wait
	// MinResponseRateGrace, then must move rate × T bytes by time T of
	// waiting. The handler's time between writes never counts, so a
	// response streamed slowly (server-sent events) is not cut. Zero means
	// DefaultMinResponseRate (240 bytes/s); negative disables the rule. A
	// slower client fails the write (BodyWriter.Write and Flush return
	// ErrResponseTooSlow) and the connection is closed. Over plain TCP a
	// client that reads slowly but at the rate is never cut, however large
	// the response. Over TLS, where a write that timed out cannot go on,
	// each 16 KiB of a write is given one deadline instead: the time its
	// bytes take at the rate, or the grace period when longer. A write
	// blocked on a full socket buffer is only woken once a good part of
	// the buffer has drained, so a TLS client reading above the rate but
	// taking longer than that deadline to drain it is cut too. On HTTP/2
	// (package h2, Config.Handler nil) it applies to each stream's
	// writes, which wait for the stream's flow-control window as well as
	// the socket; the stream is reset. Like MinRequestBodyRate, it does
	// not apply to a TLS handshake nor to a hijacked connection.
	MinResponseRate int

	// MinResponseRateGrace is how long a write to the connection may wait
	// before MinResponseRate applies. Zero means
	// DefaultMinResponseRateGrace (5 s); negative disables the rule.
	MinResponseRateGrace time.Duration

	// IdleTimeout bounds the wait for the next request on a keep-alive
	// connection (and for the first one on a new connection). Zero means
	// DefaultIdleTimeout (60 s); negative means no limit. On expiry the
	// connection is closed. A TLS connection's wait for its first request
	// begins after the handshake (TLSHandshakeTimeout bounds that). An
	// HTTP/2 connection (package h2) is closed once it has had no open
	// stream for IdleTimeout. It does not apply to a hijacked connection.
	IdleTimeout time.Duration

	// MaxConns is the largest number of connections served at once. Zero or
	// negative means no limit. A connection beyond it is answered 503 and
	// closed. It counts TCP (or Unix) connections from their accept: a
	// TLS connection during its handshake counts, an HTTP/2 connection
	// counts once whatever its streams (package h2's
	// Config.MaxConcurrentStreams bounds them), and a connection a
	// handler took over (Ctx.Hijack) no longer counts.
	MaxConns int

	// MaxRequestsPerConn is the largest number of requests served on one
	// connection. Zero or negative means no limit. The response to the last
	// one carries "Connection: close".
	MaxRequestsPerConn int

	// IgnoreClientClose, when true, leaves Ctx.Context uncancelled when
	// the client goes away: only Shutdown cancels it. False (the default),
	// as with net/http, Ctx.Context is cancelled when the client closes
	// (FIN) or resets the connection while the handler runs, at no cost
	// for a handler that never asks for the context: the connection is
	// watched (a goroutine, a context and a background read of one byte,
	// per request) only once the handler asked for it (Ctx.Context,
	// Ctx.Done; every request of a FromHTTP handler, whose r.Context() is
	// it) and the request body was read to its end (at once for a request
	// without a body). The watch ends when the handler returns, so an idle
	// connection is not watched (and may be parked, see NoParkIdle).
	//
	// On HTTP/1.1, a pipelined request already buffered when the watch
	// would begin shows the client is there: that request's handler is not
	// watched (net/http, which does not read ahead, watches it), and a
	// byte the watch reads is kept for the next request. On TLS the TLS
	// connection is watched alike (a close_notify, FIN or reset cancels).
	// On HTTP/2 (package h2, Config.Handler nil) the stream's context
	// (x/net/http2's) is the one watched: the client resetting the stream
	// (RST_STREAM) or closing the connection cancels it. A connection a
	// handler took over (Ctx.Hijack, Upgrade, Tunnel) is no longer
	// watched: the handler reads it, and the context stays as it was.
	IgnoreClientClose bool

	// NoParkIdle, when true, keeps every idle keep-alive connection in
	// its goroutine. False (the default), on Linux, a connection that has
	// waited ParkIdleAfter for its next (or first) request with nothing
	// buffered is parked: until bytes arrive it holds no goroutine and
	// about a kilobyte of memory, where one waiting in its goroutine holds
	// its stack and buffers; the request that wakes it pays a hand-off to
	// a new goroutine. Handlers see no difference. A parked connection's
	// IdleTimeout fires up to two seconds late, never early. On other
	// systems connections are never parked.
	//
	// Parked: plain HTTP/1.1 connections over TCP or Unix sockets, with or
	// without a PROXY header, whose IdleTimeout is none or 2 s or more.
	// Never parked: TLS connections, HTTP/2 ones (h2c included) and
	// connections a handler took over (Ctx.Hijack, Upgrade, Tunnel).
	// bench/results/parking.md has the measurements.
	NoParkIdle bool

	// ParkIdleAfter is how long a connection waits for its next request
	// in its goroutine before it is parked (see NoParkIdle); it has no
	// effect with NoParkIdle. Zero means DefaultParkIdleAfter (2 s);
	// negative parks at once. A connection whose next request comes
	// within ParkIdleAfter is never parked, so it never pays for the
	// hand-off to another goroutine that resuming a parked connection
	// costs; parking at once makes a busy connection pay it whenever its
	// next request is not there yet. When 1,024 new connections of the
	// process (before their second request) already wait in their
	// goroutines, more are parked at once whatever ParkIdleAfter says, so
	// that the memory of a burst of connections stays that of parked ones.
	ParkIdleAfter time.Duration

	// CloseHijacked makes Shutdown close, at once, the connections that
	// handlers took over (Ctx.Hijack, Upgrade, Tunnel) and have not
	// closed, and any taken over later. The connection handed over is
	// then a wrapper (its NetConn method returns the connection itself).
	// Off, Shutdown neither waits for nor closes them.
	CloseHijacked bool

	// TLSConfig configures ServeTLS and ListenAndServeTLS (certificates,
	// SNI, client certificates); see ServeTLS for the defaults it gets.
	// Nil means a default configuration. Serve does not use it.
	TLSConfig *tls.Config

	// TLSHandshakeTimeout bounds a TLS connection's handshake, from its
	// accept. Zero means DefaultTLSHandshakeTimeout (10 s); negative means
	// no limit. On expiry the connection is closed, logged at debug level.
	TLSHandshakeTimeout time.Duration

	// HTTP2 serves the connections that speak HTTP/2: TLS connections for
	// which ALPN chose "h2", and with H2C, cleartext ones that open with
	// the HTTP/2 preface. Nil means HTTP/1.1 only. h2.Configure (package
	// github.com/brisk-http/brisk/h2) sets it to a server for Handler.
	HTTP2 ConnServer

	// H2C serves HTTP/2 "with prior knowledge" on cleartext connections
	// (RFC 9113 §3.3): one whose first bytes are the HTTP/2 preface is
	// handed to HTTP2. Off by default (the preface is then answered 505);
	// it needs HTTP2. The h2c upgrade
	// from HTTP/1.1 (Upgrade: h2c), deprecated by RFC 9113, is not
	// supported: such a request is served as HTTP/1.1.
	H2C bool

	// ProxyProtocol, when set, makes connections from its trusted proxies
	// begin with a PROXY protocol header giving the client's address (see
	// ProxyProtocol). Nil means no connection may send one: it would be
	// read as a malformed request.
	ProxyProtocol *ProxyProtocol

	// TrustedProxies lists the networks of the proxies whose forwarding
	// field (ClientIPField) Ctx.ClientIP believes. Empty (the default)
	// means none: no field is ever read. HTTP/2 requests (package h2) do
	// not use it: ClientIP is their peer.
	TrustedProxies []netip.Prefix

	// ClientIPField is the one field the trusted proxies write the
	// client's address in, and the only one Ctx.ClientIP reads: each
	// proxy must append to it (X-Forwarded-For, Forwarded) or set it
	// (X-Real-IP), never pass a client's on alone. Empty means
	// FieldXForwardedFor; a value other than the three Field constants
	// means none is read (ClientIP is the peer).
	ClientIPField ForwardingField

	// DrainDelay is the least time Drain keeps serving, with Draining
	// true, before it shuts down, even with no connection left: time for
	// load balancers probing readiness to see the server not ready and
	// stop sending it clients (Kubernetes also needs it to remove the
	// pod's endpoints). Zero means DefaultDrainDelay (5 s); negative means
	// none. Drain's context still ends it earlier.
	DrainDelay time.Duration

	// ConnState, when set, is called on each change of a connection's
	// state (see ConnState), on the connection's goroutine (StateNew: on
	// the accepting one): keep it short, and do not panic. Nil costs
	// nothing. A TLS connection is reported new at its accept, before its
	// handshake. An HTTP/2 connection is reported as one connection, not
	// per stream: new, active when it is handed over to HTTP/2, closed. A
	// hijacked connection's last state is StateHijacked.
	ConnState func(nc net.Conn, state ConnState)

	// OnRequestDone, when set, is called once for each request the
	// Handler was run for or that was answered after its head was parsed
	// (a request refused then, e.g. 413, also goes to OnReject, before;
	// one whose head does not parse goes only to OnReject), right after
	// the write that hands the last byte of its response to the
	// connection, or when the connection fails or closes before that
	// (RequestInfo.Err). Responses batched into one write (pipelined
	// requests) are reported in order after it, so the hook adds no write
	// (except that more than 32 batched responses, or methods and
	// request-targets with the logged fields of RequestInfo over 4 KiB
	// in all, flush early), and
	// later pipelined requests may be served before the call. The client may see the
	// response before the call; it precedes the connection's next
	// StateIdle, StateHijacked or StateClosed. It runs on the
	// connection's goroutine: keep it short, and do not panic. Nil costs
	// nothing: no clock read, no allocation. Every protocol is reported
	// alike (see RequestInfo): an HTTP/2 stream (package h2, Config.Handler
	// nil) or HTTP/3 request (module h3) once it reached the Handler, on
	// the stream's goroutine; a request whose handler took the connection
	// over (Ctx.Hijack, Upgrade, Tunnel) when its handler returns. Set it
	// before h2.Configure and h3.Configure, which copy it.
	OnRequestDone func(*RequestInfo)

	mu        sync.Mutex
	started   bool
	lim       limits
	parser    wire.Parser
	logger    *slog.Logger
	listeners map[net.Listener]struct{}
	conns     map[*conn]struct{}
	active    atomic.Int64 // connections being served, for MaxConns and Shutdown
	closing   atomic.Bool
	draining  atomic.Bool // Drain: every response closes its connection
	baseCtx   context.Context
	cancel    context.CancelFunc
	date      dateCache
	pools     pools
	hijacks   hijackSet

	acceptErrs atomic.Uint64             // AcceptErrors (server_accept.go)
	attached   []interface{ Shutdown() } // Attach: servers of other transports
}

// ListenAndServe listens on the TCP address addr and calls Serve. Its
// connections have TCP keep-alive as net.Listen's (probes after 15 s
// idle).
func (s *Server) ListenAndServe(addr string) error {
	ln, err := listen.TCP("tcp", addr, nil)
	if err != nil {
		return err
	}
	return s.Serve(ln)
}

// Serve accepts connections on ln and serves each in its own goroutine. It
// closes ln when it returns. After Shutdown it returns ErrServerClosed;
// otherwise the Accept error. Serve may be called for several listeners.
func (s *Server) Serve(ln net.Listener) error {
	if !s.track(ln) {
		ln.Close()
		return ErrServerClosed
	}
	defer s.untrack(ln)
	var retry acceptRetry // server_accept.go
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.closing.Load() {
				return ErrServerClosed
			}
			if isTemporary(err) {
				time.Sleep(retry.failed(s, err))
				continue
			}
			return err
		}
		retry.delay = 0
		s.startConn(nc)
	}
}

// Shutdown stops the server gracefully: it closes the listeners, closes
// every idle connection at once, lets in-flight requests finish (their
// responses carry "Connection: close") and cancels every Ctx.Context.
// Connections a handler took over (Ctx.Hijack) are not waited for; see
// CloseHijacked. A connection still in its TLS handshake is closed like
// an idle one. An HTTP/2 connection (Server.HTTP2) gets a GOAWAY (RFC 9113
// §6.8): its open streams finish, their contexts cancelled, and it closes
// once they have. It returns nil when all connections are closed, or
// ctx.Err() when ctx expires first (remaining connections are then left
// to finish; Close ends them, logging each response it cuts).
func (s *Server) Shutdown(ctx context.Context) error {
	s.closing.Store(true)
	s.mu.Lock()
	for ln := range s.listeners {
		ln.Close()
	}
	if s.cancel != nil {
		s.cancel()
	}
	s.date.halt()
	s.mu.Unlock()
	s.hijacks.closeAll()

	s.closeParked()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		s.closeIdle()
		s.shutdownConns()
		if s.active.Load() == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// start resolves the configuration once, on the first Serve.
func (s *Server) start() {
	if s.started {
		return
	}
	s.started = true
	s.lim = s.resolveLimits()
	s.parser = wire.Parser{MaxRequestLineBytes: s.lim.maxRequestLine, MaxHeaderBytes: s.lim.maxHeader}
	s.logger = s.Logger
	if s.logger == nil {
		s.logger = slog.Default()
	}
	s.listeners = make(map[net.Listener]struct{})
	s.conns = make(map[*conn]struct{})
	s.baseCtx, s.cancel = context.WithCancel(context.Background())
	s.pools.init(&s.lim)
	s.date.start()
}

func (s *Server) track(ln net.Listener) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing.Load() {
		return false
	}
	s.start()
	s.listeners[ln] = struct{}{}
	return true
}

func (s *Server) untrack(ln net.Listener) {
	s.mu.Lock()
	delete(s.listeners, ln)
	s.mu.Unlock()
	ln.Close()
}

// startConn serves nc in a new goroutine, or rejects it with 503 when
// MaxConns connections are already served.
func (s *Server) startConn(nc net.Conn) {
	c, ok := s.admit(nc)
	go c.run(ok)
}

// serveConn is startConn on the calling goroutine: it returns once nc
// is served (or rejected) and closed.
func (s *Server) serveConn(nc net.Conn) {
	c, ok := s.admit(nc)
	c.run(ok)
}

// admit counts nc and gives it a conn; false means it is over MaxConns.
func (s *Server) admit(nc net.Conn) (*conn, bool) {
	n := s.active.Add(1)
	c := s.pools.getConn(s)
	c.attach(nc)
	s.hookNew(nc)
	if s.lim.maxConns > 0 && n > int64(s.lim.maxConns) {
		return c, false
	}
	s.mu.Lock()
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	return c, true
}

// connDone is called by a connection's goroutine when it has closed.
func (s *Server) connDone(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	s.active.Add(-1)
}

// closeIdle closes the connections waiting for a request.
func (s *Server) closeIdle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.closeIfIdle()
	}
}

func isTemporary(err error) bool {
	te, ok := err.(interface{ Temporary() bool })
	return ok && te.Temporary()
}
