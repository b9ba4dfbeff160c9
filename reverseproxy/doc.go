// Package reverseproxy is an HTTP/1.1 reverse proxy (a gateway, RFC 9110
// §3.7) as a brisk Handler: each request received is forwarded to one of
// a set of upstream servers, over a pool of keep-alive connections per
// upstream, and the upstream's response is relayed back.
//
//	p := &reverseproxy.Proxy{Upstreams: []string{"http://10.0.0.11:8080", "http://10.0.0.12:8080"}}
//	srv := &brisk.Server{Handler: p.Serve}
//
// Bodies are streamed both ways, never held whole: the request body is read
// from the client as the upstream takes it, and the response body is
// written to the client as it arrives (but for the head of a response
// with a Content-Length, which waits for the upstream's next bytes after
// those that came with it, so that they leave together), so either
// side's slowness holds the other back (backpressure) within the
// server's and the Proxy's timeouts. Framing is decided again on each side: the upstream receives
// the request framed as brisk read it (Content-Length, chunked, or none),
// and a response that the upstream cut short is cut short for the client
// too (no last-chunk, no padding: the connection is closed), so that no
// side can take a broken message for a complete one.
//
// Hop-by-hop fields are removed in both directions (RFC 9110 §7.6.1):
// Connection and the fields it names, Proxy-Connection, Keep-Alive, TE
// (but "TE: trailers"), Transfer-Encoding, Upgrade, HTTP2-Settings,
// Proxy-Authenticate and Proxy-Authorization. Via and the forwarding fields (X-Forwarded-For,
// -Proto, -Host; RFC 7239 Forwarded) are added as Forwarding says, with
// the client's address as the server's PROXY protocol and TrustedProxies
// settings establish it (brisk.Ctx.RemoteAddr, ClientIP).
//
// Interim responses are relayed: "Expect: 100-continue" is forwarded and
// the client gets its 100 (Continue) when the upstream sends one (the body
// is read from the client only then), and 103 Early Hints and other 1xx
// are forwarded as they come (brisk.Ctx.SendInterim). A request offering
// a protocol upgrade (WebSocket, RFC 6455) is forwarded with its Upgrade
// field (but an offer of h2c, which would let the client speak HTTP/2 to
// the upstream past the Proxy, is dropped and the request forwarded as an
// ordinary one); when the upstream answers 101 the connection is switched on both
// sides and bytes are copied both ways until either side closes or is idle
// for IdleTimeout. CONNECT is refused (405) unless Proxy.Connect is set.
//
// Upstreams are chosen by Balance among the healthy ones: an upstream
// that failed an attempt is left alone for HealthPenalty (passive
// checking), and with HealthCheck set each is probed every HealthInterval
// and left alone while its check fails (active checking).
//
// On HTTP/1.1 and TLS connections every feature works as described; on
// h2 and h2c connections (brisk's h2 package) requests are forwarded over
// HTTP/1.1 likewise, streaming and with trailers both ways (their Via
// element says "2"), but there is no upgrade: the h2 server answers a
// request with Connection or Upgrade fields 400 and resets an extended
// CONNECT (RFC 9113 §8.2.2, §8.6; RFC 8441 is not offered), and the Proxy
// refuses CONNECT with 405 (ErrConnectRefused) even when Connect is set.
// Interim responses other than 100 are dropped by the HTTP/2 bridge.
// Behind a PROXY protocol header the client's address is the header's
// source address, on every protocol.
package reverseproxy
