// Package websocket serves WebSocket connections (RFC 6455) on a brisk
// Server: Upgrade checks the opening handshake of a brisk.Ctx and switches
// the connection (brisk.Ctx.Upgrade), and Conn reads and writes messages
// with the limits a public endpoint needs. Frame headers are parsed in
// the read buffer, without allocating, and payloads unmasked with
// github.com/gobwas/ws's Cipher; permessage-deflate (RFC 7692) inflates
// with compress/flate and deflates with
// github.com/klauspost/compress/flate's stateless encoder.
//
// A Conn enforces:
//   - a maximum message size (Options.MaxMessageSize; also the bound of a
//     decompressed message): a larger one is refused with Close 1009
//     before its payload is read;
//   - RFC 6455's framing rules: a protocol error (unmasked client frame,
//     reserved bits or opcodes, fragmented or oversized control frame,
//     non-minimal or 64-bit-MSB length, a continuation with no message)
//     is answered with Close 1002, invalid UTF-8 in a text message or a
//     Close reason with Close 1007;
//   - an idle limit (Options.IdleTimeout): the server pings every
//     Options.PingInterval, and a client from which no frame (a pong
//     counts) arrives within the limit is closed with Close 1001;
//   - a write deadline per message (Options.WriteTimeout);
//   - bounded memory: see Options.MaxMessageSize and Options.Compression.
//
// # Protocols
//
// HTTP/1.1: the handshake is a GET with "Connection: Upgrade" and
// "Upgrade: websocket" (§4.1); HTTP/1.0 cannot upgrade. Bytes the client
// sent behind its request (frames sent before the 101 arrived) are read
// first. TLS: the same over the *tls.Conn (wss://); Close's half-close
// sends TLS close_notify. Behind a PROXY header (brisk.Server.ProxyProtocol)
// the header was consumed before the request: the Conn sees the stream
// after it, and Conn.RemoteAddr is the client's address from the header.
// HTTP/2 (package h2) and h2c: streams cannot switch protocols and RFC
// 8441's extended CONNECT is not supported: the server does not announce
// SETTINGS_ENABLE_CONNECT_PROTOCOL (so browsers open an HTTP/1.1
// connection for WebSockets), a CONNECT with :protocol is reset with
// PROTOCOL_ERROR before any handler runs, and a GET carrying a WebSocket
// handshake has no Upgrade field: Upgrade fails with ErrNotWebSocket and
// answers 426.
//
// # Shutdown and Drain
//
// The Conn watches the request's context (brisk.Ctx.Context) while the
// handler runs: brisk.Server.Shutdown, and Drain when it reaches its
// shutdown, cancel it, and the Conn then sends Close 1001 (going away)
// and closes the connection once the client answers, or after a second.
// Shutdown does not wait for upgraded connections; with
// brisk.Server.CloseHijacked it closes them at once, which may be before
// the Close frame is sent. Keep the connection in the handler (as Handler
// does): after the handler returns, the context may be cancelled.
package websocket
