package brisk

import (
	"bufio"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brisk-http/brisk/proxyproto"
	"github.com/brisk-http/brisk/wire"
)

// bridgedConn is the connection a request bridged from net/http
// (Server.HTTPHandler) is served on, on the ServeHTTP goroutine itself:
// reads return the request as HTTP/1.1, writes take brisk's response and
// pass it to the ResponseWriter. It is one pointer, so that it converts
// to a net.Conn without allocating.
type bridgedConn struct{ *bridgeExchange }

// bridgeExchange is the state of one bridged request, pooled by the
// httpBridge.
//
// The request side: the head, written by writeHead into buf, then the
// body from r.Body (as it is when its length is known, chunked with
// r.Trailer otherwise). Past the request's end a read waits until the
// response is complete (then EOF: the client closes, its request
// answered), the request's context ends (EOF: the client went away),
// the read deadline or Close: so the client-close watch works
// as on a socket.
//
// The response side: each write is parsed (head, then body framing);
// status and fields go to the ResponseWriter at the final head, body
// data as it arrives, trailers at the end. A write that leaves the
// response incomplete came from a flush of the brisk handler (or a full
// write buffer): the ResponseWriter is flushed then, and only then. A
// 101, or a 2xx to CONNECT, hijacks the net/http connection: the head is
// written to it as brisk wrote it, and reads and writes go to it from
// then on (splice).
type bridgeExchange struct {
	w   http.ResponseWriter
	rc  http.ResponseController
	r   *http.Request
	buf []byte // request bytes still to read are out, in buf's storage

	local          net.Addr             // r's local address, looked up when first asked for
	raddr          stringAddr           // r.RemoteAddr, boxed only when asked for
	tls            *tls.ConnectionState // r.TLS, for Ctx.TLS (see connTLS)
	http2          bool                 // r came on HTTP/2 or HTTP/3 (Ctx.Proto)
	h3             bool                 // r came on HTTP/3
	peer           net.Addr             // the TCP peer of a connection the Server handed over; nil otherwise
	proxy          *proxyproto.Header   // its PROXY header; nil when none
	rcount, wcount int64                // on HTTP/2, head and body bytes read; head bytes written (streamCounts)

	// Request side.
	out   []byte
	body  io.Reader // r.Body until its end; nil when none or read
	left  int64     // body bytes still to read, -1 for a chunked body
	rerr  error     // sticky error of r.Body
	keys  []string  // scratch for sorting r.Header's keys
	rsent time.Time // the read deadline last set on rc

	// Response side.
	head        wire.ResponseHead
	fields      []wire.Field
	dec         wire.BodyDecoder
	maxTrailers int
	pend        []byte // response bytes kept for the next parse
	state       bridgeState
	started     bool      // the final status was given to w
	wdl         time.Time // the write deadline brisk set
	wsent       time.Time // the write deadline last set on rc
	written     int64     // body bytes given to w
	splice      net.Conn
	sbr         *bufio.Reader

	gone atomic.Bool // the handler kept the hijacked connection past ServeHTTP

	mu     sync.Mutex // guards rdl, done, closed for a read waiting at the end
	rdl    time.Time
	done   bool
	closed bool
	wake   chan struct{} // capacity 1: one of them changed
	timer  *time.Timer   // wakes a read waiting at the end at rdl
}

// bridgeState is where the response brisk writes is in its parse.
type bridgeState uint8

const (
	bridgeHead    bridgeState = iota // awaiting a (final) head
	bridgeBody                       // the body, framed by dec
	bridgeDone                       // complete: more writes fail
	bridgeFailed                     // unparsable or cut short: the net/http response is aborted
	bridgeSpliced                    // the connection switched protocols
)

// errBridgeDone is the write error past the end of a bridged response,
// or once it failed.
var errBridgeDone = errors.New("brisk: bridged response already complete")

// chunkHeadLen is the room the bridge keeps before each chunk of a
// request body for its chunk-size line: 8 hex digits and CRLF at most.
const chunkHeadLen = 10

// bridgeBufSize is the size of a bridged request's head and chunk buffer.
const bridgeBufSize = 4 << 10

// newBridgeExchange returns an exchange for responses whose trailer
// section has at most maxTrailers fields (Server.MaxFields).
func newBridgeExchange(maxTrailers int) *bridgeExchange {
	return &bridgeExchange{
		buf:         make([]byte, 0, bridgeBufSize),
		fields:      make([]wire.Field, 32),
		maxTrailers: maxTrailers,
		wake:        make(chan struct{}, 1),
	}
}

// reset prepares e for r, to be answered through w.
func (e *bridgeExchange) reset(w http.ResponseWriter, r *http.Request) {
	e.w, e.rc, e.r = w, *http.NewResponseController(w), r
	e.local, e.raddr = nil, stringAddr(r.RemoteAddr)
	e.tls = r.TLS
	e.takeFacts(r)
	e.body, e.left, e.rerr = nil, 0, nil
	if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
		e.body, e.left = r.Body, r.ContentLength
	}
	e.out = e.writeHead(e.buf[:0])
	e.rcount, e.wcount = int64(len(e.out)), 0
	e.rsent, e.wdl, e.wsent, e.written = time.Time{}, time.Time{}, time.Time{}, 0
	e.pend = e.pend[:0]
	e.state, e.started = bridgeHead, false
	e.rdl, e.done, e.closed = time.Time{}, false, false
	select {
	case <-e.wake:
	default:
	}
}

// release drops e's references to the request; false means e must not be
// pooled: the connection was spliced, or hijacked by the brisk handler
// (Ctx.Hijack without a protocol switch), which may still hold it; its
// reads and writes fail from now on.
func (e *bridgeExchange) release() bool {
	if e.state == bridgeSpliced {
		return false
	}
	e.mu.Lock()
	hijacked := !e.closed // brisk closes the connection unless its handler took it
	e.mu.Unlock()
	if hijacked {
		e.gone.Store(true)
		return false
	}
	if e.timer != nil {
		e.timer.Stop()
	}
	clear(e.keys)
	e.w, e.rc, e.r, e.body, e.tls = nil, http.ResponseController{}, nil, nil, nil
	e.local, e.peer, e.proxy = nil, nil, nil
	return true
}

// RemoteAddr returns the TCP peer of the connection the request came on
// when the Server handed it over (the proxy after a PROXY header, which
// Ctx.RemoteAddr reports), else r.RemoteAddr.
func (c bridgedConn) RemoteAddr() net.Addr {
	if c.peer != nil {
		return c.peer
	}
	return c.raddr
}

// LocalAddr returns the request's http.LocalAddrContextKey, found in
// its context at the first call (a walk up the context chain that most
// requests never need).
func (c bridgedConn) LocalAddr() net.Addr {
	if c.local == nil {
		c.local = bridgedLocal(c.r)
	}
	return c.local
}

// awaitEnd waits, past the request's end, for the response to be complete
// (io.EOF), the request's context to end (io.EOF), the read deadline
// (os.ErrDeadlineExceeded) or Close (net.ErrClosed); once the connection
// is spliced it returns the reader of the net/http connection instead.
func (e *bridgeExchange) awaitEnd() (*bufio.Reader, error) {
	var ctxDone <-chan struct{}
	e.mu.Lock()
	for {
		switch {
		case e.sbr != nil:
			e.mu.Unlock()
			return e.sbr, nil
		case e.closed:
			e.mu.Unlock()
			return nil, net.ErrClosed
		case e.done:
			e.mu.Unlock()
			return nil, io.EOF
		case !e.rdl.IsZero():
			d := time.Until(e.rdl)
			if d <= 0 {
				e.mu.Unlock()
				return nil, os.ErrDeadlineExceeded
			}
			if e.timer == nil {
				e.timer = time.AfterFunc(d, e.signal)
			} else {
				e.timer.Reset(d)
			}
		}
		e.mu.Unlock()
		if ctxDone == nil {
			ctxDone = e.r.Context().Done()
		}
		select {
		case <-e.wake:
		case <-ctxDone:
			return nil, io.EOF
		}
		e.mu.Lock()
	}
}

// signal wakes a read waiting in awaitEnd.
func (e *bridgeExchange) signal() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Close ends the exchange: a read waiting at the end returns, and a
// close-delimited response is complete. Once spliced, it closes the
// net/http connection.
func (c bridgedConn) Close() error {
	e := c.bridgeExchange
	if e.state == bridgeSpliced {
		return e.splice.Close()
	}
	if e.state == bridgeBody && e.dec.EndOK() {
		e.state = bridgeDone
	}
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	e.signal()
	return nil
}

// finish completes w after brisk served the request: a response cut
// short aborts it (panic(http.ErrAbortHandler), after e is released), none
// at all is a 502.
func (e *bridgeExchange) finish() (abort bool) {
	switch {
	case e.state == bridgeSpliced || e.state == bridgeDone:
	case e.started || e.state == bridgeFailed:
		return true
	default:
		http.Error(e.w, "brisk handler sent no response", http.StatusBadGateway)
	}
	return false
}

func (c bridgedConn) SetDeadline(t time.Time) error {
	c.SetReadDeadline(t)
	return c.SetWriteDeadline(t)
}

// SetReadDeadline sets the deadline of body reads and of a read waiting
// at the end.
func (c bridgedConn) SetReadDeadline(t time.Time) error {
	e := c.bridgeExchange
	if e.state == bridgeSpliced {
		return e.splice.SetReadDeadline(t)
	}
	e.mu.Lock()
	e.rdl = t
	e.mu.Unlock()
	e.signal()
	return nil
}

// SetWriteDeadline sets the deadline of the writes to w, given to it at
// the next write.
func (c bridgedConn) SetWriteDeadline(t time.Time) error {
	e := c.bridgeExchange
	if e.state == bridgeSpliced {
		return e.splice.SetWriteDeadline(t)
	}
	e.wdl = t
	return nil
}

// tlsConn is a connection that carries the TLS state of another one: the
// in-memory connection of a request bridged from net/http
// (Server.HTTPHandler), whose TLS state is the request's (http.Request.TLS,
// nil for cleartext).
type tlsConn interface{ connTLS() *tls.ConnectionState }

func (c bridgedConn) connTLS() *tls.ConnectionState { return c.tls }
