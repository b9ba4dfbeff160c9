package brisk

import (
	"errors"
	"net"
	"net/http"
	"net/textproto"

	"github.com/brisk-http/brisk/wire"
)

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
			e.wcount += int64(n)
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

// setFields adds the head's fields but hopByHop to w's header.
func (e *bridgeExchange) setFields() {
	fs := e.head.Fields
	addFields(e.w.Header(), fs, e.head.Raw, make([]string, len(fs)), hopByHop[:]) // w's header keeps them: not pooled
}

// unsetFields removes the interim head's fields from w's header.
func (e *bridgeExchange) unsetFields() {
	h := e.w.Header()
	for _, f := range e.head.Fields {
		delete(h, textproto.CanonicalMIMEHeaderKey(string(f.Name)))
	}
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
		k := http.TrailerPrefix + textproto.CanonicalMIMEHeaderKey(string(f.Name))
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
