package brisk

import "bytes"

// http2PrefaceLine is the request line that opens the HTTP/2 connection
// preface, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" (RFC 9113 §3.4), sent by a
// client that speaks HTTP/2 with prior knowledge.
const http2PrefaceLine = "PRI * HTTP/2.0\r\n"

// isHTTP2Preface reports whether in, a connection's input from the start
// of a request, begins with the HTTP/2 connection preface. It is the one
// place the server recognises HTTP/2: the preface is answered 505 (HTTP
// Version Not Supported, RFC 9110 §15.6.6) like any HTTP/2.0 request line,
// where the request-target "*" with method PRI alone would be a 400.
func isHTTP2Preface(in []byte) bool {
	return bytes.HasPrefix(in, []byte(http2PrefaceLine))
}
