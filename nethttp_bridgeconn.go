package brisk

import (
	"bufio"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

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
// the read deadline or Close: so the CancelOnClientClose watch works
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

	local net.Addr             // r's local address, looked up when first asked for
	raddr stringAddr           // r.RemoteAddr, boxed only when asked for
	tls   *tls.ConnectionState // r.TLS, for Ctx.TLS (see connTLS)

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

// chunkHeadLen is the length of the chunk-size line the bridge writes
// before each chunk of a request body: 8 hex digits and CRLF.
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
	e.out = e.writeHead(e.buf[:0])
	e.body, e.left, e.rerr = nil, 0, nil
	if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
		e.body, e.left = r.Body, r.ContentLength
	}
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
	e.local = nil
	return true
}

// writeHead appends r's head: request line, Host, the fields sorted by
// name (as http.Header.Write sends them) but those describing the
// framing, then Content-Length or Transfer-Encoding and the Trailer
// declaration when there is a body. Expect is left out: net/http sends
// "100 Continue" itself when the body is read.
func (e *bridgeExchange) writeHead(b []byte) []byte {
	r := e.r
	target := r.RequestURI
	if target == "" {
		target = r.URL.RequestURI()
	}
	if r.Method == "CONNECT" && r.URL.Path == "" {
		target = r.Host
	}
	b = append(append(append(append(b, r.Method...), ' '), target...), " HTTP/1.1\r\nHost: "...)
	b = append(append(b, r.Host...), "\r\n"...)
	e.keys = e.keys[:0]
	for k := range r.Header {
		switch k {
		case "Host", "Content-Length", "Transfer-Encoding", "Expect", "Trailer":
		default:
			e.keys = append(e.keys, k)
		}
	}
	slices.Sort(e.keys)
	for _, k := range e.keys {
		for _, v := range r.Header[k] {
			b = appendBridgedField(b, k, v)
		}
	}
	hasBody := r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
	switch {
	case hasBody && r.ContentLength < 0:
		b = append(b, "Transfer-Encoding: chunked\r\n"...)
		for k := range r.Trailer {
			b = appendBridgedField(b, "Trailer", k)
		}
	case hasBody:
		b = append(b, "Content-Length: "...)
		b = append(strconv.AppendInt(b, r.ContentLength, 10), "\r\n"...)
	}
	return append(b, "\r\n"...)
}

// appendBridgedField appends "name: value" and CRLF, the value's CR and
// LF replaced with SP, as http.Header.Write does.
func appendBridgedField(b []byte, name, value string) []byte {
	b = append(append(b, name...), ": "...)
	for i := 0; i < len(value); i++ {
		c := value[i]
		if c == '\r' || c == '\n' {
			c = ' '
		}
		b = append(b, c)
	}
	return append(b, "\r\n"...)
}

func (c bridgedConn) RemoteAddr() net.Addr { return c.raddr }

// LocalAddr returns the request's http.LocalAddrContextKey, found in
// its context at the first call (a walk up the context chain that most
// requests never need).
func (c bridgedConn) LocalAddr() net.Addr {
	if c.local == nil {
		c.local = bridgedLocal(c.r)
	}
	return c.local
}

// Read returns the request's head, then its body, then waits for the end
// of the exchange (see bridgeExchange).
func (c bridgedConn) Read(p []byte) (int, error) {
	e := c.bridgeExchange
	if e.gone.Load() {
		return 0, net.ErrClosed
	}
	if len(e.out) > 0 {
		n := copy(p, e.out)
		e.out = e.out[n:]
		return n, nil
	}
	if e.body != nil {
		return e.readBody(p)
	}
	if e.rerr != nil {
		return 0, e.rerr
	}
	if sbr, err := e.awaitEnd(); sbr != nil {
		return sbr.Read(p)
	} else {
		return 0, err
	}
}

// readBody reads from r.Body, under the read deadline brisk set: into p
// for a Content-Length body, else into a chunk in buf.
func (e *bridgeExchange) readBody(p []byte) (int, error) {
	e.mu.Lock()
	if !e.rdl.Equal(e.rsent) {
		e.rsent = e.rdl
		e.rc.SetReadDeadline(e.rdl)
	}
	e.mu.Unlock()
	if e.left >= 0 {
		n, err := e.body.Read(p[:int(min(int64(len(p)), e.left))])
		e.left -= int64(n)
		if e.left == 0 {
			e.body, err = nil, nil
		} else if err != nil {
			e.body, e.rerr = nil, err
		}
		return n, err
	}
	b := e.buf[:cap(e.buf)]
	n, err := e.body.Read(b[chunkHeadLen : len(b)-2])
	switch {
	case n > 0:
		const hex = "0123456789abcdef"
		for i := range 8 {
			b[i] = hex[n>>(28-4*i)&0xf]
		}
		b[8], b[9] = '\r', '\n'
		b = append(b[:chunkHeadLen+n], "\r\n"...)
		e.out = b
		if err == io.EOF {
			err = nil // the last chunk comes with the next read
		}
	case err == io.EOF:
		e.body = nil
		e.out = e.lastChunk(b[:0])
		err = nil
	}
	if err != nil {
		e.body, e.rerr = nil, err
	}
	return bridgedConn{e}.Read(p)
}

// lastChunk appends the last chunk and r.Trailer (RFC 9112 §7.1).
func (e *bridgeExchange) lastChunk(b []byte) []byte {
	b = append(b, "0\r\n"...)
	for k, vv := range e.r.Trailer {
		for _, v := range vv {
			b = appendBridgedField(b, k, v)
		}
	}
	return append(b, "\r\n"...)
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

// Write takes the next bytes of brisk's response; see bridgeExchange.
func (c bridgedConn) Write(p []byte) (int, error) {
	e := c.bridgeExchange
	if e.gone.Load() {
		return 0, net.ErrClosed
	}
	switch e.state {
	case bridgeSpliced:
		return e.splice.Write(p)
	case bridgeDone, bridgeFailed:
		return 0, errBridgeDone
	}
	if err := e.take(p); err != nil {
		if e.state != bridgeSpliced && e.state != bridgeDone {
			e.state = bridgeFailed
		}
		e.end()
		return 0, err
	}
	switch e.state {
	case bridgeDone:
		e.end()
	case bridgeBody:
		e.sendWriteDeadline()
		if err := e.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return 0, err
		}
	}
	return len(p), nil
}

// end marks the response complete for a read waiting in awaitEnd.
func (e *bridgeExchange) end() {
	e.mu.Lock()
	e.done = true
	e.mu.Unlock()
	e.signal()
}

// take parses p, following what came before it.
func (e *bridgeExchange) take(p []byte) error {
	kept := len(e.pend) > 0
	if kept {
		e.pend = append(e.pend, p...)
		p = e.pend
	}
	for len(p) > 0 && (e.state == bridgeHead || e.state == bridgeBody) {
		var n int
		var err error
		if e.state == bridgeHead {
			n, err = e.takeHead(p, kept)
		} else {
			n, err = e.takeBody(p, kept)
		}
		if err != nil {
			return err
		}
		if n < 0 { // more input is needed: the rest is in e.pend
			return nil
		}
		p = p[n:]
	}
	e.pend = e.pend[:0]
	return nil
}

// takeHead parses a response head at the start of p and hands it to w,
// returning its length, or -1 when p holds part of it.
func (e *bridgeExchange) takeHead(p []byte, kept bool) (int, error) {
	var parser wire.Parser
	for {
		e.head.Reset(e.fields)
		n, err := parser.ParseResponse(p, &e.head)
		switch wire.KindOf(err) {
		case 0:
			return n, e.handHead(p[:n])
		case wire.ErrNeedMore:
			e.keep(p, kept)
			return -1, nil
		case wire.ErrTooManyFields:
			e.fields = make([]wire.Field, 2*len(e.fields))
		default:
			return 0, err
		}
	}
}

// handHead gives the parsed head (raw, as brisk wrote it) to w.
func (e *bridgeExchange) handHead(raw []byte) error {
	h, code := &e.head, e.head.StatusCode
	if code == 101 || e.r.Method == "CONNECT" && code/100 == 2 {
		return e.spliceTo(raw)
	}
	e.setFields()
	if code < 200 {
		if e.r.ProtoAtLeast(1, 1) { // none to HTTP/1.0 (RFC 9110 §15.2), as SendInterim
			e.sendWriteDeadline()
			e.w.WriteHeader(code)
		}
		e.unsetFields()
		return nil
	}
	e.w.WriteHeader(code)
	e.started = true
	e.dec.Reset(h.Framing(e.r.Method == "HEAD"), h.ContentLength)
	if e.dec.Framing() == wire.FramingChunked && e.dec.Chunked.Trailers == nil {
		e.dec.Chunked.Trailers = make([]wire.Field, 0, e.maxTrailers)
	}
	e.state = bridgeBody
	if e.dec.Done() {
		e.state = bridgeDone
	}
	return nil
}

// hopByHop are the response fields that describe brisk's in-memory
// connection, not the response.
var hopByHop = [...]string{"Connection", "Keep-Alive", "Transfer-Encoding", "Trailer"}

// setFields adds the head's fields but hopByHop to w's header; the
// values share one string copy of the field section and one slice.
func (e *bridgeExchange) setFields() {
	h, fs := e.w.Header(), e.head.Fields
	raw := e.head.Raw
	s := string(raw)
	vals := make([]string, len(fs)) // w's header keeps them: not pooled
	for i := range fs {
		key := bridgedKey(fs[i].Name)
		if slices.Contains(hopByHop[:], key) {
			continue
		}
		vals[i] = substring(s, raw, fs[i].Value)
		if vv, ok := h[key]; ok {
			h[key] = append(vv, vals[i])
		} else {
			h[key] = vals[i : i+1 : i+1]
		}
	}
}

// unsetFields removes the interim head's fields from w's header.
func (e *bridgeExchange) unsetFields() {
	h := e.w.Header()
	for _, f := range e.head.Fields {
		delete(h, bridgedKey(f.Name))
	}
}

// bridgedKey returns the canonical form of a field name brisk wrote,
// without allocating for the common ones.
func bridgedKey(name []byte) string {
	switch string(name) {
	case "Content-Type":
		return "Content-Type"
	case "Content-Length":
		return "Content-Length"
	case "Date":
		return "Date"
	case "Server":
		return "Server"
	case "Connection":
		return "Connection"
	case "Transfer-Encoding":
		return "Transfer-Encoding"
	case "Cache-Control":
		return "Cache-Control"
	case "Content-Encoding":
		return "Content-Encoding"
	case "Vary":
		return "Vary"
	case "Location":
		return "Location"
	case "Set-Cookie":
		return "Set-Cookie"
	case "Last-Modified":
		return "Last-Modified"
	}
	return http.CanonicalHeaderKey(string(name))
}

// takeBody passes the body data at the start of p to w and returns the
// bytes of p it used, or -1 when the chunked decoder keeps the rest of p
// (a chunk line or the trailer section in parts). kept says whether p is
// e.pend already; for a chunked body it is decoded in e.pend, in place.
func (e *bridgeExchange) takeBody(p []byte, kept bool) (int, error) {
	if e.dec.Framing() != wire.FramingChunked {
		n, consumed, err := e.dec.Decode(p)
		if err := e.writeBody(p[:n], e.dec.Done()); err != nil {
			return 0, err
		}
		if e.dec.Done() {
			e.state = bridgeDone
		}
		return consumed, err
	}
	if !kept {
		e.keep(p, false)
		p = e.pend
	}
	n, consumed, err := e.dec.Decode(p)
	if werr := e.writeBody(p[:n], e.dec.Done()); werr != nil || err != nil {
		return 0, errors.Join(werr, err)
	}
	if !e.dec.Done() {
		e.keep(p[consumed:], true)
		return -1, nil
	}
	e.setTrailers()
	e.state = bridgeDone
	return consumed, nil
}

// keep makes p, the unparsed rest of the response so far, e.pend; kept
// says whether p lies in e.pend already.
func (e *bridgeExchange) keep(p []byte, kept bool) {
	if kept {
		e.pend = e.pend[:copy(e.pend, p)]
	} else {
		e.pend = append(e.pend[:0], p...)
	}
}

// writeBody writes body data to w; done says whether it ends the body.
func (e *bridgeExchange) writeBody(p []byte, done bool) error {
	if len(p) == 0 {
		return nil
	}
	if !done || e.written > 0 || len(p) > bridgeSmallBody {
		e.sendWriteDeadline()
	}
	e.written += int64(len(p))
	_, err := e.w.Write(p)
	return err
}

// bridgeSmallBody is the largest body, in bytes, that net/http and
// x/net/http2 buffer whole when written at once (their chunk writers'
// size): such a write cannot block, and a response sent whole in one
// does not need the write deadline (a timer, for x/net/http2).
const bridgeSmallBody = 4 << 10

// sendWriteDeadline gives w the write deadline brisk set, if changed.
func (e *bridgeExchange) sendWriteDeadline() {
	if !e.wdl.Equal(e.wsent) {
		e.wsent = e.wdl
		e.rc.SetWriteDeadline(e.wdl)
	}
}

// setTrailers gives the chunked body's trailer fields to w.
func (e *bridgeExchange) setTrailers() {
	h := e.w.Header()
	for _, f := range e.dec.Chunked.Trailers {
		k := http.TrailerPrefix + bridgedKey(f.Name)
		h[k] = append(h[k], string(f.Value))
	}
}

// spliceTo hijacks the net/http connection and writes head to it.
// Without hijacking (HTTP/2) the response is a 500.
func (e *bridgeExchange) spliceTo(head []byte) error {
	nc, brw, err := e.rc.Hijack()
	if err != nil {
		e.w.WriteHeader(http.StatusInternalServerError)
		e.started, e.state = true, bridgeDone
		return err
	}
	e.splice, e.state = nc, bridgeSpliced
	e.mu.Lock()
	e.sbr = brw.Reader
	e.mu.Unlock()
	e.signal()
	if _, err := brw.Write(head); err != nil {
		return err
	}
	return brw.Flush()
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
