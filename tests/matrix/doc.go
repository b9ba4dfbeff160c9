// Package matrix runs the same handlers over every protocol brisk
// serves, HTTP/1.1, HTTP/1.1 over TLS, h2 (ALPN) and h2c (prior
// knowledge), each without a PROXY header, behind PROXY v1 and behind
// PROXY v2, with real clients (Go's net/http and x/net/http2
// transports, curl, HAProxy), and asserts in every cell what must not
// depend on the protocol: Ctx.Proto, RemoteAddr, ClientIP, PeerAddr,
// LocalAddr and TLS; one Server.OnRequestDone per request with its
// status and byte counts; the request's context cancelled when the
// client goes away (on HTTP/2, RST_STREAM); and Server.Drain finishing
// the requests in flight with none failed. A test skips only when its
// client binary is not on PATH. The package has no API. HTTP/3 has its
// cell in h3/matrix_test.go (module h3), so that this module does not
// link quic-go.
package matrix
