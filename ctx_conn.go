package brisk

import (
	"context"
	"net"
	"net/http"

	"github.com/brisk-http/brisk/proxyproto"
)

// protoHTTP20 is the protocol version of an HTTP/2 request, as net/http
// reports it (http.Request.Proto).
const protoHTTP20 = "HTTP/2.0"

// Proto returns the protocol version the request came on, as net/http's
// Request.Proto reports it: "HTTP/1.0" or "HTTP/1.1" (over TCP or TLS),
// "HTTP/2.0" for h2 and h2c, "HTTP/3.0" for HTTP/3 (package h3). It is
// Request.Proto; it does not allocate.
func (c *Ctx) Proto() string { return c.Request.Proto() }

// handover is what the Server knows of a connection it handed to
// ConnServer (HTTP/2) and the connection's requests, served through
// HTTPHandler, cannot learn from net/http: the TCP peer and the PROXY
// header. It travels in the context the connection is served under.
type handover struct {
	peer  net.Addr           // the TCP peer: the proxy after a PROXY header
	proxy *proxyproto.Header // a copy owned by the handover; nil when none
}

// handoverKey is the context key of a *handover.
type handoverKey struct{}

// handoverContext returns a context, never cancelled, carrying c's facts
// for the requests of the connection it hands over; peer is the TCP peer.
func (c *conn) handoverContext(peer net.Addr) context.Context {
	h := &handover{peer: peer}
	if c.proxy != nil {
		h.proxy = c.proxy.Clone()
	}
	return context.WithValue(context.Background(), handoverKey{}, h)
}

// bridgedFacts is a connection carrying a request bridged from net/http
// (HTTPHandler), with what it knows of the connection the request came
// on: whether it is HTTP/2, and the PROXY header that began it.
type bridgedFacts interface {
	connFacts() (http2, h3 bool, proxy *proxyproto.Header)
}

func (c bridgedConn) connFacts() (bool, bool, *proxyproto.Header) { return c.http2, c.h3, c.proxy }

// takeFacts sets e's view of r's connection: HTTP/2 or not and, for a
// connection the Server handed over, the TCP peer and the PROXY header.
func (e *bridgeExchange) takeFacts(r *http.Request) {
	e.http2, e.h3, e.peer, e.proxy = r.ProtoMajor >= 2, r.ProtoMajor == 3, nil, nil
	if r.ProtoMajor != 2 {
		return // a Server hands over only HTTP/2
	}
	if h, ok := r.Context().Value(handoverKey{}).(*handover); ok {
		e.peer, e.proxy = h.peer, h.proxy
	}
}

// streamCounts sets in's byte counts for a request that came on HTTP/2:
// the heads as brisk saw them in HTTP/1.1 form and the body bytes the
// stream carried, without the chunked framing of the in-memory
// connection.
func (c *conn) streamCounts(in *RequestInfo) {
	if bc, ok := c.nc.(bridgedConn); ok {
		in.BytesRead, in.BytesWritten = bc.rcount, bc.wcount+bc.written
	}
}
