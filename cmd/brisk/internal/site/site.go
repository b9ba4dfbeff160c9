// Package site is the default site of `brisk serve`: a small HTML page, the
// TechEmpower plaintext and JSON shapes, an echo endpoint, a health check and
// a few static files, all embedded in the binary.
//
//	/              index.html (GET, HEAD)
//	/plaintext     "Hello, World!" as text/plain
//	/json          {"message":"Hello, World!"} as application/json
//	/echo          the request in the echo format of package echo (any method),
//	               or as an HTML page for a client that prefers text/html
//	/healthz       "ok"
//	/hello/{name}  "Hello, name!" as text/plain
//	/static/...    embedded files, or the files of Config.Root streamed from disk
//	/ws            a WebSocket echo, bounded by Config's WebSocket limits
//	               (websocket.go)
//
// The site serves no profiling or metrics: `brisk serve` puts those on a
// separate admin listener (-admin).
//
// The routes are a router.Router's: any other path is answered 404, a method
// other than GET or HEAD on a path other than /echo 405 with an Allow field,
// and a path with dot-segments or repeated slashes is redirected to its
// normalized form.
package site

//go:generate go run genpng.go

import (
	"bytes"
	"html"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/echo"
	"github.com/brisk-http/brisk/router"
)

// Config selects what the site serves. The zero value serves the embedded
// site.
type Config struct {
	// Root is a directory served under /static/ instead of the embedded
	// files. No request can reach a file outside it (see Site). "" means the
	// embedded files.
	Root string

	// Echo makes every path, whatever the method, answer in the echo
	// format, for conformance probes.
	Echo bool

	// Compress compresses the home page and the files under /static/
	// with the coding the request's Accept-Encoding prefers (zstd, br or
	// gzip; RFC 9110 §12.5.3) when their media type is compressible
	// (compress.Compressible) and their body is 1 KiB or more, with
	// "Vary: Accept-Encoding" and a weak ETag (package compress); and
	// serves a file's "name.zst", "name.br" or "name.gz" sibling, when
	// the client accepts its coding, instead of compressing "name"
	// (files.Server.Precompressed). Byte ranges (206) are of the
	// identity file, never compressed. False sends every body as is.
	Compress bool

	// WebSocketMaxMessage is the largest message /ws accepts, in bytes,
	// its fragments added up. Zero means DefaultWebSocketMaxMessage (1
	// MiB); negative means no limit. A frame that would take a message
	// past it is answered, before its payload is read, with a Close frame
	// with status 1009 (Message Too Big, RFC 6455 §7.4.1), and the
	// connection is closed (package websocket, Options.MaxMessageSize).
	WebSocketMaxMessage int64

	// WebSocketIdleTimeout is the longest /ws waits for a frame from the
	// client; the server sends a Ping every half of it, so a client that
	// answers (a pong counts) stays connected, and one that went silent
	// is closed. Zero means DefaultWebSocketIdleTimeout (60 s, as the
	// server's default IdleTimeout); negative means no limit. On expiry
	// the server sends a Close frame with status 1001 (Going Away) and
	// closes the connection (package websocket, Options.IdleTimeout).
	WebSocketIdleTimeout time.Duration
}

// addrMark stands in index.html for the URL of the server, scheme and
// host:port without a final "/".
const addrMark = "{{base}}"

// Site serves the default site. Create it with New; it is safe for
// concurrent use by the server's connections.
type Site struct {
	index  [][]byte // the home page, split at each addrMark
	static staticFiles
	echo   bool
	ws     wsLimits
	router *router.Router
}

// New returns the site cfg describes. It fails when cfg.Root cannot be
// opened as a directory.
func New(cfg Config) (*Site, error) {
	index, err := indexHTML()
	if err != nil {
		return nil, err
	}
	st, err := newStaticFiles(cfg.Root, cfg.Compress)
	if err != nil {
		return nil, err
	}
	s := &Site{index: bytes.Split(index, []byte(addrMark)), static: st, echo: cfg.Echo, ws: newWSLimits(cfg), router: router.New()}
	s.routes(compressing(cfg))
	return s, nil
}

// routes registers the site's routes, the home page and the static
// files through wrap (compressing).
func (s *Site) routes(wrap func(brisk.Handler) brisk.Handler) {
	r := s.router
	r.Handle("GET /{$}", wrap(s.home))
	r.Handle("GET /plaintext", plaintext)
	r.Handle("GET /json", jsonHello)
	r.Handle("GET /healthz", healthz)
	r.Handle("GET /hello/{name}", hello)
	r.Handle("/echo", serveEcho)
	r.Handle("GET /static/", wrap(s.static.serve))
	r.Handle("GET /ws", s.ws.echo)
}

// Close releases the directory Config.Root, if one was opened.
func (s *Site) Close() error { return s.static.Close() }

// Handle is the site's brisk.Handler.
func (s *Site) Handle(c *brisk.Ctx) {
	if s.echo {
		echo.Handle(c) // conformance probes: always JSON
		return
	}
	s.router.Serve(c)
}

// home answers the home page, its load-test commands showing the address
// the client reached this server on (the connection's local address).
func (s *Site) home(c *brisk.Ctx) {
	c.Response.Header.Set("Content-Type", "text/html; charset=utf-8")
	url := html.EscapeString("http://" + c.LocalAddr().String())
	for i, part := range s.index {
		if i > 0 {
			c.Response.WriteString(url)
		}
		c.Response.Write(part)
	}
}

func plaintext(c *brisk.Ctx) {
	c.Response.Header.Set("Content-Type", "text/plain")
	c.Response.SetBodyString("Hello, World!")
}

func jsonHello(c *brisk.Ctx) {
	c.Response.Header.Set("Content-Type", "application/json")
	c.Response.SetBodyString(`{"message":"Hello, World!"}`)
}

func healthz(c *brisk.Ctx) { setText(c, 200, "ok") }

func hello(c *brisk.Ctx) {
	c.Response.Header.Set("X-Content-Type-Options", "nosniff")
	setText(c, 200, "Hello, "+string(c.Param("name"))+"!")
}

// setText answers code with body as text/plain.
func setText(c *brisk.Ctx, code int, body string) {
	c.Response.SetStatusCode(code)
	c.Response.Header.Set("Content-Type", "text/plain; charset=utf-8")
	c.Response.SetBodyString(body)
}
