// Package echo answers a request with the request itself, as brisk parsed
// it, in the JSON echo format of the HTTP Garden differential fuzzer (see
// shared/conformance/README.md, "The echo server"):
//
//	{"headers":[[B64(name),B64(value)],...],"body":B64(body),"method":B64(method),"version":B64(version),"uri":B64(request-target)}
//
// B64 is standard base64 with padding (RFC 4648 §4) of the raw bytes, so the
// document never needs JSON string escaping. Field lines appear in the order
// received, names as received, values as the parser left them: without
// leading or trailing OWS (RFC 9112 §5.1, done once by package wire); the
// body has its chunked framing removed.
package echo

import (
	"encoding/base64"

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
	c.Response.SetBody(Append(c.Response.Body()[:0], &c.Request, body))
}

// Append appends the echo document of r, with body as its body, to dst and
// returns the extended slice. It allocates only when dst lacks capacity;
// Len gives the capacity needed.
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
	dst = appendEncodeString(dst, r.Proto())
	dst = append(dst, `","uri":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, r.Target())
	return append(dst, `"}`...)
}

// Len returns the length in bytes of the echo document Append produces for
// r and body.
func Len(r *brisk.Request, body []byte) int {
	const fixed = len(`{"headers":[],"body":"","method":"","version":"","uri":""}`)
	const perField = len(`["",""],`)
	n := fixed
	fields := 0
	for name, value := range r.Header.All() {
		n += b64Len(len(name)) + b64Len(len(value)) + perField
		fields++
	}
	if fields > 0 {
		n-- // no comma after the last field
	}
	return n + b64Len(len(body)) + b64Len(len(r.Method())) +
		b64Len(len(r.Proto())) + b64Len(len(r.Target()))
}

func b64Len(n int) int { return base64.StdEncoding.EncodedLen(n) }

// appendEncodeString is base64.StdEncoding.AppendEncode for a string,
// without converting it to a byte slice.
func appendEncodeString(dst []byte, s string) []byte {
	var buf [48]byte // HTTP-version is 8 bytes; longer strings go in pieces of 48
	for len(s) > 0 {
		n := copy(buf[:], s)
		dst = base64.StdEncoding.AppendEncode(dst, buf[:n])
		s = s[n:]
	}
	return dst
}
