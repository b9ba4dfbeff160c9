package brisk

import (
	"bytes"
	"crypto/tls"
	"errors"
	"net"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/brisk-http/brisk/internal/connio"
	"github.com/brisk-http/brisk/proxyproto"
	"github.com/brisk-http/brisk/wire"
)

// Connection states, for Shutdown: an idle connection may be closed at once.
const (
	stateIdle int32 = iota
	stateActive
	stateClosed
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
	watch      watcher
	proxy      *proxyproto.Header // the connection's PROXY header; nil when none
	proxyStore *proxyproto.Header // storage for proxy, reused by the next connection
	connStats                     // byte counts and timing for the hooks (hooks.go)
	done       *doneQueue         // requests awaiting OnRequestDone; nil until the hook is used

	state     atomic.Int32
	keepAlive bool
	headTimer bool // ReadHeaderTimeout is armed for the current head
	waited    bool
	peek      [1]byte
	nreq      int
	deadline  int64 // read deadline set on nc, Unix ns; 0 when none
	wdeadline int64 // write deadline set on nc by write, Unix ns; 0 when none
	writes    int   // writes to nc, to tell whether a response has left
	readable  func(fd uintptr) bool
	wclock    writeClock // the write in progress (server_datarate.go)
	hijacked  bool       // the handler took the connection over (Ctx.Hijack)
}

func newConn(s *Server) *conn {
	c := &conn{srv: s, lim: &s.lim}
	c.ctx.c = c
	c.ctx.Request.c = c
	c.ctx.bw.c = c
	c.ctx.Response.stream = &c.ctx.bw
	c.body.init(c)
	c.in.Reset((*source)(c), nil)
	c.watch.c = c
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
	c.in.Discard()
	c.body.reading = false // the last request's body: PROXY and TLS read before a request
	c.nreq, c.werr = 0, nil
	c.deadline, c.wdeadline = 0, 0
	c.wclock.tick = 0 // nc has no write deadline yet
	c.hijacked = false
	c.connStats = connStats{}
	c.state.Store(stateIdle)
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
func (c *conn) loop() {
	for {
		if c.in.Len() == 0 && c.park() {
			return
		}
		if !c.serveOne() {
			break
		}
	}
	c.finish()
}

// serveOne serves one request and reports whether to serve another:
// read the head, decide framing and limits, run the handler, write the
// response, decide keep-alive.
func (c *conn) serveOne() bool {
	if err := c.readHead(); err != nil {
		c.rejectHead(err)
		return false
	}
	c.beginRequest()
	c.beginHook()
	if c.checkTarget() && c.checkLimits() {
		c.runHandler()
		c.ctx.Request.afterHandler()
		if c.hijacked {
			return false // the connection is the handler's: write nothing
		}
		c.finishBody()
	}
	c.writeResponse()
	c.requestDone()
	if !c.keepAlive || c.werr != nil {
		c.closeAfterResponse()
		return false
	}
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

// rejectHead answers a malformed head from the one error table (505 for
// the HTTP/2 connection preface, see isHTTP2Preface); I/O errors (EOF,
// timeout, close) end the connection silently. The answer to a head that
// begins with "HEAD " has no body (RFC 9110 §9.3.2).
func (c *conn) rejectHead(err error) {
	if wire.KindOf(err) == 0 || c.rbuf == nil {
		return
	}
	in := c.in.Buffered()
	code := statusForError(err).code
	if isHTTP2Preface(in) { // "PRI * HTTP/2.0": an HTTP/2 client, not a bad target
		code = 505
		err = &wire.Error{Kind: wire.ErrVersionUnsupported, Offset: len("PRI * HTTP/")}
	}
	c.reject(code, err)
	c.writeErrorOnly(code, bytes.HasPrefix(in, methodHead))
	c.lingerClose() // the rest of the request may be on its way
}

// methodHead is the method HEAD followed by its SP, as a request line
// begins with it.
var methodHead = []byte("HEAD ")

// rejectBusy answers a connection beyond MaxConns with 503 and closes it,
// without reading from it.
func (c *conn) rejectBusy() {
	defer c.finish()
	c.nc.SetDeadline(time.Now().Add(time.Second)) // a TLS handshake reads too
	c.writeErrorOnly(503, false)
	c.nc.Write(c.writeBuf().b) // under the second above, not the data rates
}

// writeErrorOnly encodes an error response with the given status code to a
// request that is not served (no head, or none read), with
// "Connection: close"; for a HEAD request (head), without its body but
// with the Content-Length it would have, as for any response to HEAD.
func (c *conn) writeErrorOnly(code int, head bool) {
	c.ctx.Request.head.Reset(nil)
	if head {
		c.ctx.Request.head.Method = methodHead[:4]
	}
	c.resetExchange()
	c.ctx.Response.setError(code)
	c.keepAlive = false
	c.writeResponse()
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
		c.ctx.Response.setError(statusForError(err).code)
		c.reject(statusForError(err).code, err)
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
		c.watch.startIfWanted()
		return true
	}
	if f == wire.FramingLength && c.lim.bodyTooLarge(c.body.dec.Remaining()) {
		c.ctx.Response.setError(413)
		c.reject(413, ErrBodyTooLarge)
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
		c.ctx.Response.setError(404)
	}
}

func (c *conn) recoverHandler() {
	if p := recover(); p != nil {
		c.handlerPanicked(p)
	}
	c.watch.stop()
}

// finishBody makes the connection ready for the next request: a body the
// handler did not read is drained up to maxDrainBytes, else the connection
// is closed. A failed body read closes it too, and turns the response into
// the error's status (ErrorStatus) when it has not been sent: 408 after a
// read timeout (RFC 9110 §15.5.9), 400 to a body cut short by the client
// (io.ErrUnexpectedEOF: an incomplete message, RFC 9112 §8), 413 or 400 to
// the wire kinds. Whatever the handler set is replaced: it cannot have
// answered a request it did not receive.
func (c *conn) finishBody() {
	b := &c.body
	if b.err != nil {
		c.keepAlive = false
		if !c.ctx.bw.started {
			c.ctx.Response.setError(ErrorStatus(b.err))
		}
		return
	}
	if b.complete() {
		return
	}
	if b.awaitingContinue() || !c.keepAlive || !b.drain(maxDrainBytes) {
		c.keepAlive = false
	}
}

// writeResponse encodes the response into the write buffer; it is flushed
// before the next blocking read, so pipelined responses leave in one write.
func (c *conn) writeResponse() {
	if c.srv.closing.Load() || c.srv.draining.Load() {
		c.keepAlive = false
	}
	if c.ctx.bw.started {
		c.ctx.bw.finish()
		return
	}
	c.writeBuffered(&c.ctx.Response)
}

// writeBuf returns the write buffer, taking one from the pool if needed.
func (c *conn) writeBuf() *buffer {
	if c.wbuf == nil {
		c.wbuf = c.srv.pools.getWriteBuf()
	}
	return c.wbuf
}

// sendBytes appends p to the write buffer when it fits in the free space,
// else writes the buffer and p, straight from its storage, together: no
// copy, and one system call on a connection that gathers writes (TCP).
func (c *conn) sendBytes(p []byte) {
	w := c.writeBuf()
	if len(p) <= cap(w.b)-len(w.b) {
		w.b = append(w.b, p...)
		return
	}
	switch {
	case c.werr != nil:
		return
	case len(w.b) == 0:
		c.werr = c.write(p, nil) // nothing to gather: no empty write first
	default:
		c.werr = c.write(w.b, p)
		w.b = w.b[:0]
	}
	c.written(c.werr)
}

// flush writes the pending response bytes.
func (c *conn) flush() error {
	if c.wbuf == nil || len(c.wbuf.b) == 0 || c.werr != nil {
		return c.werr
	}
	c.werr = c.write(c.wbuf.b, nil)
	c.wbuf.b = c.wbuf.b[:0]
	c.written(c.werr) // OnRequestDone for the responses now written
	return c.werr
}

// write writes p, then q (nil for none), to the connection under
// WriteTimeout and MinResponseRate (armWrite, afterWriteTimeout in
// server_datarate.go; writePieces over TLS), measured like the read timeouts
// (see setReadTimeout).
func (c *conn) write(p, q []byte) error {
	c.writes++
	if c.lim.respRate.on() && c.wholeWrite() {
		return c.writePieces(p, q)
	}
	c.armWrite()
	for {
		var n int
		var err error
		if len(q) == 0 {
			n, err = c.nc.Write(p)
		} else {
			n, err = c.writev(p, q)
		}
		c.nwritten += int64(n)
		if err == nil || !isTimeout(err) {
			return err
		}
		if err = c.afterWriteTimeout(n, err); err != nil {
			return err
		}
		if n < len(p) {
			p = p[n:]
		} else {
			p, q = q[n-len(p):], nil
		}
	}
}

// writev writes p and q, neither empty, in one gathering write
// (net.Buffers: writev on TCP, successive Writes elsewhere).
func (c *conn) writev(p, q []byte) (int, error) {
	w := c.writeBuf() // its iovs: WriteTo's receiver escapes
	w.iov = [2][]byte{p, q}
	w.iovs = w.iov[:]
	n, err := w.iovs.WriteTo(c.nc)
	w.iov = [2][]byte{}
	return int(n), err
}

// finish closes the connection and recycles c.
func (c *conn) finish() {
	c.watch.stop()
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
	c.nc, c.raw, c.tls, c.proxy = nil, nil, nil, nil
	s.pools.putConn(c)
}
