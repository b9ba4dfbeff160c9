package brisk

import (
	"crypto/tls"
	"errors"
	"net"
	"sync/atomic"
	"syscall"

	"github.com/brisk-http/brisk/internal/connio"
	"github.com/brisk-http/brisk/proxyproto"
	"github.com/brisk-http/brisk/wire"
)

// The connection loop, one request per iteration, each step one call:
// read the head (server_read.go), check it, run the handler over the body
// reader (server_bodyreader.go), encode the response head (server_head.go)
// and body (server_bodywriter.go, server_sendfile.go), write them
// (server_write.go). A request answered without the handler is rejected
// (server_reject.go). Hooks at the steps: TLS (server_tls.go), PROXY
// (proxyproto.go), metrics (hooks.go), parking (park.go), HTTP/2
// (server_h2.go), lingering close (server_linger.go), panics
// (server_panic.go).

// Connection states, for Shutdown: an idle connection may be closed at once.
const (
	stateIdle int32 = iota
	stateActive
	stateClosed
	stateIdleBlind // idle in a wait that did not peek (sendAndWait): input may be there unseen
)

var errConnClosed = errors.New("brisk: connection closed")

// conn serves one client connection. It is pooled by the Server with its
// Ctx, field storage and closures, and reset, never reallocated, per
// connection.
type conn struct {
	srv *Server
	lim *limits
	nc  net.Conn
	raw syscall.RawConn      // nil when nc has no file descriptor, or is TLS
	tls *tls.ConnectionState // nil unless nc is TLS, after the handshake

	rbuf *buffer       // the read buffer's pooled storage; nil while idle on a raw connection
	in   connio.Reader // the input, in rbuf's storage, read from source (server_read.go); Detach hands it over
	wbuf *buffer       // pending response bytes; nil while idle
	werr error         // sticky write error

	ctx        Ctx
	body       bodyReader
	watch      *watcher           // the client-close watch; nil until a handler asks for the context (server_watch.go)
	proxy      *proxyproto.Header // the connection's PROXY header; nil when none
	proxyStore *proxyproto.Header // storage for proxy, reused by the next connection
	connStats                     // byte counts and timing for the hooks (hooks.go)
	done       *doneQueue         // requests awaiting OnRequestDone; nil until the hook is used

	state     atomic.Int32
	idleSince atomic.Int64    // when c last became idle, coarse Unix ns (Drain)
	peekRaw   syscall.RawConn // raw as attach set it: Drain peeks from another goroutine (hasInput)
	nreq      int
	deadline  int64 // read deadline set on nc, Unix ns; 0 when none
	wdeadline int64 // write deadline set on nc by write, Unix ns; 0 when none
	writes    int   // writes to nc, to tell whether a response has left
	readable  func(fd uintptr) bool
	wclock    writeClock // the write in progress (server_write.go)

	// deferredAt is the read deadline to set before the next read when
	// deferredRead (deferReadDeadline).
	deferredAt int64

	// The flags, together so that the struct has no padding between them
	// (TestConnSize).
	cut          atomic.Bool // Close closed c in the middle of a request (logCut)
	keepAlive    bool
	headTimer    bool // ReadHeaderTimeout is armed for the current head
	waited       bool
	peek         [1]byte
	hijacked     bool // the handler took the connection over (Ctx.Hijack)
	http2        bool // a stream of an HTTP/2 connection, bridged (ctx_conn.go)
	deferredRead bool
	watchReady   bool // the request body was read: a watch may begin (bodyRead)
	h3           bool // with http2: a stream of HTTP/3 (package h3), bridged
	parkAdded    bool // nc's fd is in the parker's epoll set (park_linux.go)
	pipelined    bool // the client sent ahead of a response, or may have: every wait peeks (server_await.go)
}

func newConn(s *Server) *conn {
	c := &conn{srv: s, lim: &s.lim}
	c.ctx.c = c
	c.ctx.Request.recv = &c.body
	c.ctx.bw.c = c
	c.ctx.Response.stream = &c.ctx.bw
	c.body.init(c)
	c.in.Reset((*source)(c), nil)
	c.readable = c.onReadable
	return c
}

// attach prepares c to serve nc.
func (c *conn) attach(nc net.Conn) {
	c.nc = nc
	c.raw = nil
	if sc, ok := nc.(syscall.Conn); ok {
		if rc, err := sc.SyscallConn(); err == nil {
			c.raw = rc
		}
	}
	c.peekRaw = c.raw
	c.markIdle() // a new connection is idle until its first request
	c.in.Discard()
	c.body.reading = false // the last request's body: PROXY and TLS read before a request
	c.nreq, c.werr = 0, nil
	c.deadline, c.wdeadline = 0, 0
	c.deferredRead = false
	c.wclock.tick = 0 // nc has no write deadline yet
	c.hijacked = false
	c.parkAdded = false
	c.pipelined = false
	c.cut.Store(false)
	c.connStats = connStats{}
	c.state.Store(stateIdle)
}

// run serves c, or rejects it with 503 when it was not admitted.
func (c *conn) run(admitted bool) {
	if admitted {
		c.serve()
	} else {
		c.rejectBusy()
	}
}

// serve negotiates the connection (TLS, PROXY) and serves it.
func (c *conn) serve() {
	if p := c.srv.ProxyProtocol; p != nil && !c.acceptProxy(p) {
		c.finish()
		return
	}
	if pc, ok := c.nc.(*proxyTLSConn); ok && !c.startTLS(pc) {
		c.finish()
		return
	}
	if !c.negotiate() {
		c.finish()
		return
	}
	c.loop()
}

// loop is the connection loop: one request per iteration. Before each
// request, with nothing buffered, the connection may be parked: loop then
// returns with c open, to be served again by resume (park_linux.go).
//
// The flush of the previous responses and the wait for a request
// (awaitRequest: the flush, the read deadline, the poll) are called from
// here, not from deeper in serveOne, so that with a handler of modest depth the
// goroutine's deepest calls fit its first 2 KiB stack: a stack that grows
// to 4 KiB stays that size while the connection idles (TestIdleConnStack).
func (c *conn) loop() {
	for {
		var err error
		if c.in.Len() == 0 && c.park() {
			return
		}
		if c.in.Len() == 0 { // park may have read the next request's first bytes
			err = c.awaitRequest()
		}
		if !c.serveOne(err) {
			break
		}
	}
	c.finish()
}

// serveOne serves one request and reports whether to serve another:
// read the head, decide framing and limits, run the handler, write the
// response, decide keep-alive.
func (c *conn) serveOne(waitErr error) bool {
	if err := c.readHead(waitErr); err != nil {
		c.rejectHead(err)
		return false
	}
	c.beginRequest()
	c.beginHook()
	if c.checkTarget() && c.checkLimits() {
		c.runHandler()
		c.ctx.Request.afterHandler()
		if c.hijacked {
			c.requestDone() // with what was written before the hand-over
			return false    // the connection is the handler's: write nothing
		}
		c.finishBody()
	}
	c.writeResponse()
	c.requestDone()
	if !c.keepAlive || c.werr != nil {
		c.closeAfterResponse()
		return false
	}
	c.noteSentAhead()
	return true
}

// closeAfterResponse sends the last response before serve closes the
// connection, lingering (lingerClose) when the client may still be
// sending.
func (c *conn) closeAfterResponse() {
	if c.closeAborted() {
		return
	}
	if c.clientMaySend() {
		c.lingerClose()
	} else {
		c.flush()
	}
}

// resetExchange clears what the previous exchange left in the Ctx (the
// received request, the response, a streamed body's state) before a new
// one is answered, served or not.
func (c *conn) resetExchange() {
	x := &c.ctx
	x.Request.resetReceived()
	x.Response.Reset()
	x.bw.reset()
	x.route.reset()
}

// beginRequest prepares the Ctx for the parsed head and makes the
// keep-alive decision the request allows.
func (c *conn) beginRequest() {
	c.resetExchange()
	x := &c.ctx
	x.ctx = c.srv.baseCtx
	c.resetWatch()
	h := &x.Request.head
	c.nreq++
	c.keepAlive = h.KeepAlive() && !c.srv.closing.Load() &&
		(c.lim.maxRequestsPerConn == 0 || c.nreq < c.lim.maxRequestsPerConn)
	c.body.reset(h)
}

// checkTarget splits the request-target and decodes its path before the
// handler runs; one that does not decode is answered from the one error
// table (400) and the connection is closed. It reports whether to go on.
func (c *conn) checkTarget() bool {
	if err := c.ctx.Request.splitTarget(); err != nil {
		c.reject(statusForError(err).code, err)
		c.answerError(statusForError(err).code, err)
		c.keepAlive = false
		return false
	}
	return true
}

// checkLimits rejects a declared body larger than MaxBodyBytes before the
// handler runs and without reading it (413, close), and sets the read
// deadline for the body (ReadTimeout, MinRequestBodyRate). It reports
// whether to run the handler.
func (c *conn) checkLimits() bool {
	f := c.body.dec.Framing()
	if f == wire.FramingNone {
		c.bodyRead()
		return true
	}
	if f == wire.FramingLength && c.lim.bodyTooLarge(c.body.dec.Remaining()) {
		c.reject(413, ErrBodyTooLarge)
		c.answerError(413, ErrBodyTooLarge)
		c.keepAlive = false
		return false
	}
	c.body.planDeadlines()
	return true
}

// runHandler calls the Handler, turning a panic into a 500 (when nothing
// was sent yet), a response visibly cut short (else) and a closed
// connection (handlerPanicked).
func (c *conn) runHandler() {
	defer c.recoverHandler()
	if h := c.srv.Handler; h != nil {
		h(&c.ctx)
	} else {
		c.answerError(404, ErrNoHandler)
	}
}

func (c *conn) recoverHandler() {
	if p := recover(); p != nil {
		c.handlerPanicked(p)
	}
	c.stopWatch()
}

// finishBody makes the connection ready for the next request: a body the
// handler did not read is drained up to maxDrainBytes, else the connection
// is closed. A bridged HTTP/2 or HTTP/3 stream is not drained: its
// response goes at once while the client may still be sending (the
// stream ends with the exchange, as net/http's HTTP/2 server does). A
// failed body read closes it too, and turns the response into
// the error's status (ErrorStatus) when it has not been sent: 408 after a
// read timeout (RFC 9110 §15.5.9), 400 to a body cut short by the client
// (io.ErrUnexpectedEOF: an incomplete message, RFC 9112 §8), 413 or 400 to
// the wire kinds, through Server.ErrorHandler. Whatever the handler set is
// replaced (it cannot have answered a request it did not receive), unless
// it answered with that very status (see answerBodyError).
func (c *conn) finishBody() {
	b := &c.body
	if b.err != nil {
		c.keepAlive = false
		c.answerBodyError(b.err)
		return
	}
	if b.complete() {
		return
	}
	c.pipelined = true // the client sent (or may send) what the handler did not read
	if b.awaitingContinue() || !c.keepAlive || c.http2 || !b.drain(maxDrainBytes) {
		c.keepAlive = false
	}
}

// finish closes the connection and recycles c.
func (c *conn) finish() {
	if c.cut.Load() {
		c.logCut()
	}
	c.stopWatch()
	c.state.Store(stateClosed)
	c.nc.Close()
	c.releaseBuffers()
	c.ctx.Request.resetReceived()
	c.ctx.Response.Reset()
	c.ctx.ctx = nil
	c.written(errConnClosed) // responses still unwritten are cut short
	s := c.srv
	if !c.hijacked { // Hijack told the server already
		c.hookState(StateClosed) // before connDone: Shutdown returns after it
		s.connDone(c)
	}
	c.nc, c.raw, c.tls, c.proxy, c.peekRaw = nil, nil, nil, nil, nil
	s.pools.putConn(c)
}
