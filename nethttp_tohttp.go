package brisk

import (
	"net"
	"net/http"
	"sync"
)

// ToHTTP returns an http.Handler that serves each request with the brisk
// handler h, with the Server defaults; see Server.HTTPHandler.
func ToHTTP(h Handler) http.Handler { return (&Server{Handler: h}).HTTPHandler() }

// HTTPHandler returns an http.Handler that serves each request of a
// net/http server (HTTP/1 or HTTP/2) with s.Handler, under s's
// configuration (limits, timeouts, Name, Logger), so that brisk handlers
// mount in net/http muxes. s may serve listeners as well.
//
// Each request goes to s as HTTP/1.1 over an in-memory connection served
// on the ServeHTTP goroutine: the brisk handler sees the request as brisk
// parses it (an HTTP/2 request in its HTTP/1.1 form, Request.Proto and
// Ctx.Proto "HTTP/2.0" as net/http reports it; Expect is removed, net/http
// sends "100 Continue" itself when the body is read) and its response
// (status, fields but the connection-specific ones, streamed body,
// trailers) is written to the ResponseWriter as brisk sends it: the
// ResponseWriter is flushed when the brisk handler flushes (or its
// response outgrows Server.WriteBufferSize), not for a response sent
// whole. An interim response (Ctx.SendInterim) is forwarded with
// WriteHeader before the final one; a body cut short (the brisk handler
// panicked mid-stream) aborts the net/http response with
// http.ErrAbortHandler, and no response at all is a 502. A 101 from
// Ctx.Upgrade or a 2xx from Ctx.Tunnel hijacks the net/http connection
// (HTTP/1 only; HTTP/2 gets a 500) and joins it to the brisk handler's.
// Ctx.RemoteAddr is the request's RemoteAddr and Ctx.LocalAddr its
// http.LocalAddrContextKey (network "tcp"); for a connection a brisk
// Server handed to HTTP/2 (package h2), Ctx.PeerAddr is the TCP peer and
// Ctx.Proxy the PROXY header, as on HTTP/1.1. ReadTimeout and
// MinRequestBodyRate set the request's read deadline
// (http.ResponseController); a body read that times out at it goes on
// once brisk moves the deadline, as on a socket, where the ResponseWriter
// allows it (quic-go's HTTP/3); net/http's servers fail the request then
// (HTTP/2 ends the body, HTTP/1 cancels the request's context). A
// request body the brisk handler leaves unread is drained as on a brisk
// listener (up to 256 KiB); the rest is net/http's to discard. The cost
// over the brisk handler's own is a pooled exchange, the request head
// written and parsed, the response head parsed and its fields copied to
// the ResponseWriter's header.
func (s *Server) HTTPHandler() http.Handler {
	s.mu.Lock()
	s.start()
	s.mu.Unlock()
	b := &httpBridge{s: s}
	b.pool.New = func() any { return newBridgeExchange(s.lim.maxFields) }
	return b
}

// httpBridge is the http.Handler of Server.HTTPHandler, with its pool of
// exchanges.
type httpBridge struct {
	s    *Server
	pool sync.Pool // *bridgeExchange
}

// ServeHTTP serves r with the Server's Handler. A request whose context
// is already done (an HTTP/2 stream the client reset before its handler
// began, the rapid-reset pattern of CVE-2023-44487) is not served:
// nothing is written and Server.OnRequestDone is not called, as
// net/http's HTTP/2 server does not run the handlers of streams reset
// while they waited.
func (b *httpBridge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Context().Err() != nil {
		return
	}
	if r.ProtoMajor >= 2 {
		b.serveGrown(0, w, r)
		return
	}
	b.serve(w, r)
}

// bridgeStack is the stack, in bytes, that serveGrown takes at once
// before serving an HTTP/2 or HTTP/3 request. Its handler runs on a
// goroutine of its own, started by the HTTP/2 (or HTTP/3) server at the
// runtime's starting stack size (often 2 KiB), which the bridged
// request's path (the connection loop, the parser, the handler)
// outgrows: the stack doubled, copied and
// had every frame adjusted two or three times, deep in the path, per
// request (runtime.newstack: about a tenth of the CPU of a rapid-reset
// flood, bench/results/rapidreset.md). One frame of bridgeStack bytes at
// the top grows it once, with a single frame to adjust, to a size the
// path then fits in.
const bridgeStack = 8 << 10

// serveGrown serves r with bridgeStack bytes of stack taken first; i,
// any value, keeps the frame from being optimized away.
//
//go:noinline
func (b *httpBridge) serveGrown(i int, w http.ResponseWriter, r *http.Request) byte {
	var buf [bridgeStack]byte
	b.serve(w, r)
	return buf[uint(i)%uint(len(buf))]
}

// serve serves r, whose context is live.
func (b *httpBridge) serve(w http.ResponseWriter, r *http.Request) {
	e := b.pool.Get().(*bridgeExchange)
	e.reset(w, r)
	if r.ProtoMajor == 1 { // HTTP/2 is full duplex; asking costs an error's allocations
		e.rc.EnableFullDuplex()
	}
	b.s.serveConn(bridgedConn{e})
	abort := e.finish()
	if e.release() {
		b.pool.Put(e)
	}
	if abort {
		panic(http.ErrAbortHandler)
	}
}

// stringAddr is a net.Addr known by its string form.
type stringAddr string

func (a stringAddr) Network() string { return "tcp" }
func (a stringAddr) String() string  { return string(a) }

// bridgedLocal returns the local address of r's connection.
func bridgedLocal(r *http.Request) net.Addr {
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		return a
	}
	return stringAddr("")
}
