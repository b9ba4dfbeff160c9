// Package echo answers a request with the request itself, as brisk parsed
// it, in the JSON echo format of the HTTP Garden differential fuzzer, the
// one tests/conformance checks:
//
//	{"headers":[[B64(name),B64(value)],...],"body":B64(body),"method":B64(method),"version":B64(version),"uri":B64(request-target)}
//
// Handle adds a "remote" member, B64 of the client's address as brisk
// reports it (see Remote), after "uri".
//
// B64 is standard base64 with padding (RFC 4648 §4) of the raw bytes, so the
// document never needs JSON string escaping. Field lines appear in the order
// received, names as received, values as the parser left them: without
// leading or trailing OWS (RFC 9112 §5.1, done once by package wire); the
// body has its chunked framing removed. For a person, HandleHTML shows the
// same request as an escaped HTML page; PrefersHTML tells which a client
// asked for.
package echo

import (
	"encoding/base64"
	"net"
	"net/netip"

	"github.com/brisk-http/brisk"
)

// Handle is a brisk.Handler that answers every request with status 200 and
// its echo document as an application/json body. When the body cannot be
// read (too large, broken chunked framing) Handle writes nothing, so the
// server answers with the status it maps the error to (413, 400, ...) and
// closes the connection.
func Handle(c *brisk.Ctx) {
	body, err := c.Request.Body()
	if err != nil {
		return
	}
	c.Response.Header.Set("Content-Type", "application/json")
	c.Response.SetStatusCode(200)
	// Build the document in the response's own (pooled) body storage:
	// no scratch buffer, no copy.
	doc := Append(c.Response.Body()[:0], &c.Request, body)
	doc = append(doc[:len(doc)-1], `,"remote":"`...) // reopen the object
	var remote [64]byte                              // an IPv6 address with zone and port fits
	doc = base64.StdEncoding.AppendEncode(doc, AppendRemote(remote[:0], c))
	c.Response.SetBody(append(doc, `"}`...))
}

// AppendRemote appends the client's address as brisk reports it: the IP
// that Ctx.ClientIP took from a trusted proxy's Forwarded or
// X-Forwarded-For field when there is one, else Ctx.RemoteAddr ("ip:port",
// the PROXY header's source when the connection had one). It allocates
// nothing for TCP addresses.
func AppendRemote(dst []byte, c *brisk.Ctx) []byte {
	addr := c.RemoteAddr()
	var ap netip.AddrPort
	if ta, ok := addr.(*net.TCPAddr); ok {
		ap = ta.AddrPort()
		ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
	}
	if ip := c.ClientIP(); ip.IsValid() && ip != ap.Addr() {
		return ip.AppendTo(dst)
	}
	if ap.IsValid() {
		return ap.AppendTo(dst)
	}
	return append(dst, addr.String()...)
}

// Append appends the echo document of r, with body as its body, to dst and
// returns the extended slice. It allocates only when dst lacks capacity.
func Append(dst []byte, r *brisk.Request, body []byte) []byte {
	dst = append(dst, `{"headers":[`...)
	first := true
	for name, value := range r.Header.All() {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, `["`...)
		dst = base64.StdEncoding.AppendEncode(dst, name)
		dst = append(dst, `","`...)
		dst = base64.StdEncoding.AppendEncode(dst, value)
		dst = append(dst, `"]`...)
	}
	dst = append(dst, `],"body":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, body)
	dst = append(dst, `","method":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, r.Method())
	dst = append(dst, `","version":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, []byte(r.Proto())) // the conversion does not escape: no copy
	dst = append(dst, `","uri":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, r.Target())
	return append(dst, `"}`...)
}
