package brisk

import (
	"errors"
	"io"
	"net"
	"slices"
	"time"

	"github.com/brisk-http/brisk/wire"
)

// writeHead appends r's head: request line, Host, the fields sorted by
// name (as http.Header.Write sends them) but those describing the
// framing, then Content-Length or Transfer-Encoding and the Trailer
// declaration when there is a body (e.body, set first by reset). Expect
// is left out: net/http sends "100 Continue" itself when the body is
// read.
func (e *bridgeExchange) writeHead(b []byte) []byte {
	r := e.r
	target := r.RequestURI
	if target == "" {
		target = r.URL.RequestURI()
	}
	if r.Method == "CONNECT" && r.URL.Path == "" {
		target = r.Host
	}
	b = wire.AppendRequestLine(b, r.Method, target)
	b = wire.AppendField(b, "Host", r.Host)
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
	switch {
	case e.body == nil:
	case r.ContentLength < 0:
		b = append(b, "Transfer-Encoding: chunked\r\n"...)
		for k := range r.Trailer {
			b = appendBridgedField(b, "Trailer", k)
		}
	default:
		b = wire.AppendContentLength(b, r.ContentLength)
	}
	return append(b, "\r\n"...)
}

// appendBridgedField appends "name: value" and CRLF, the value treated
// as http.Header.Write does (sanitizeFieldValue).
func appendBridgedField(b []byte, name, value string) []byte {
	return wire.AppendField(b, name, sanitizeFieldValue(value))
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
		e.rcount += int64(n)
		if e.left == 0 {
			e.body, err = nil, nil
		} else if err != nil {
			if err = e.bodyErr(err); e.body != nil && n > 0 {
				err = nil // a timeout: the next read meets it again
			}
		}
		return n, err
	}
	b := e.buf[:cap(e.buf)]
	n, err := e.body.Read(b[chunkHeadLen : len(b)-2])
	e.rcount += int64(n)
	switch {
	case n > 0:
		var size [chunkHeadLen]byte
		line := wire.AppendChunkSize(size[:0], n)
		start := chunkHeadLen - len(line) // the chunk-size line ends where the data begins
		copy(b[start:], line)
		e.out = append(b[start:chunkHeadLen+n], "\r\n"...)
		if err == io.EOF {
			err = nil // the last chunk comes with the next read
		}
	case err == io.EOF:
		e.body = nil
		e.out = e.lastChunk(b[:0])
		err = nil
	}
	if err != nil {
		err = e.bodyErr(err)
		if e.body != nil && len(e.out) == 0 {
			return 0, err // a timeout, nothing read: brisk may read again
		}
	}
	return bridgedConn{e}.Read(p)
}

// bodyErr returns err, an error of r.Body's Read, and makes it the
// sticky one (the body is over), unless it is a timeout at or past the
// read deadline given to the ResponseController: brisk may then move the
// deadline and read again (MinRequestBodyRate, as on a socket), and
// quic-go's HTTP/3 body reads on. A timeout before that deadline is a
// transport's sticky one: it becomes errBridgeBodyTimeout, which is not
// a timeout, so that brisk does not retry it.
func (e *bridgeExchange) bodyErr(err error) error {
	if isTimeout(err) {
		if !e.rsent.IsZero() && !time.Now().Before(e.rsent) {
			return err
		}
		err = errBridgeBodyTimeout
	}
	e.body, e.rerr = nil, err
	return err
}

// errBridgeBodyTimeout is the sticky error of a bridged request body
// whose transport failed a read with a timeout before the read deadline.
var errBridgeBodyTimeout = errors.New("brisk: bridged request body timed out before its read deadline")

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
