// Package brisk is an HTTP/1.1 server and client (RFC 9110, RFC 9112) that
// aims to be faster than valyala/fasthttp and stricter than net/http: a
// keep-alive request costs no allocation, and malformed or ambiguous input
// is refused with a precise status code instead of being guessed at.
//
// # Server
//
//	srv := &brisk.Server{
//		Name: "example",
//		Handler: func(c *brisk.Ctx) {
//			name := c.Request.QueryArgs().Peek("name") // "/hello?name=Ada"
//			c.Response.Header.Set("Content-Type", "text/plain")
//			c.Response.WriteString("hello, ")
//			c.Response.Write(name)
//		},
//	}
//	log.Fatal(srv.ListenAndServe(":8080"))
//
// # Client
//
//	var client brisk.Client // the zero value is ready; safe for concurrent use
//	var req brisk.Request
//	var resp brisk.Response
//	req.SetMethod("GET")
//	req.SetURI("http://127.0.0.1:8080/hello?name=Ada")
//	if err := client.Do(&req, &resp); err != nil {
//		log.Fatal(err)
//	}
//	fmt.Println(resp.StatusCode(), string(resp.Body()))
//
// Reuse req and resp (and the Client) from one request to the next: their
// storage is kept, so a steady stream of requests does not allocate.
//
// # Data flow
//
// Bytes flow in one direction through small, separate steps:
//
//	net.Conn → read buffer → wire.Parser.ParseRequest → Request → Handler(*Ctx)
//	         → Response → wire.Append* → write buffer → net.Conn
//
// Package wire is the codec: pure functions over byte slices with no I/O,
// which parse a request or response head into caller-provided storage and
// encode heads and chunked bodies; the server and the client run it over
// each connection's buffers. Before the Handler runs, the request-target
// is checked and Request.Path decoded and normalized; after it returns,
// the server reads what the handler left of the body (up to 256 KiB, else
// it closes the connection) and sends the Response. ARCHITECTURE.md in
// the repository has the details.
//
// # Validity of a Ctx
//
// A *Ctx, its Request and Response, and every slice obtained from them
// (Path, Header values, cookies, query and form values, the body) are valid
// ONLY UNTIL THE HANDLER RETURNS: the server reuses them and the read buffer
// they alias for the next request on the connection. Copy what you need to
// keep, and do not use a Ctx from a goroutine that outlives the handler.
//
// # Limits
//
// Every limit has a documented default and a documented response (see the
// Server fields): request line 8 KiB (414), head 64 KiB (431), 128 field
// lines (431), body 4 MiB (413), plus read-header, read, write and idle
// timeouts. Multipart forms are bounded by MultipartLimits (parts, memory,
// disk: 413). Protocol errors are mapped to status codes by one table (see
// ErrorStatus) and never echo client bytes back; each closes the
// connection, since the framing of what follows is in doubt.
//
// # HTTP/2 and HTTP/3
//
// The same Handler serves HTTP/2 (RFC 9113) through package h2
// (h2.Configure; TLS with ALPN "h2", and h2c with Server.H2C) and HTTP/3
// (RFC 9114) through module github.com/brisk-http/brisk/h3; Ctx.Proto
// says which protocol a request came on. The Client speaks HTTP/2 to
// "https" origins that choose it when ClientConfig.HTTP2 is set
// (h2.Transport), HTTP/1.1 otherwise.
//
// # Standards
//
//   - RFC 9110, HTTP Semantics: https://www.rfc-editor.org/rfc/rfc9110
//   - RFC 9112, HTTP/1.1: https://www.rfc-editor.org/rfc/rfc9112
//   - RFC 3986, URI Generic Syntax: https://www.rfc-editor.org/rfc/rfc3986
//   - RFC 6265, HTTP State Management (cookies): https://www.rfc-editor.org/rfc/rfc6265
//   - RFC 7578, multipart/form-data: https://www.rfc-editor.org/rfc/rfc7578
//   - WHATWG URL Standard, application/x-www-form-urlencoded: https://url.spec.whatwg.org/#application/x-www-form-urlencoded
package brisk
