// Package site is the default site of `brisk serve`: a small HTML page, the
// TechEmpower plaintext and JSON shapes, an echo endpoint, a health check and
// a few static files, all embedded in the binary.
//
//	/            index.html (GET, HEAD)
//	/plaintext   "Hello, World!" as text/plain
//	/json        {"message":"Hello, World!"} as application/json
//	/echo        the request in the echo format of package echo (any method),
//	             or as an HTML page for a client that prefers text/html
//	/healthz     "ok"
//	/static/...  embedded files, or the files of Config.Root streamed from disk
//
// Any other path is answered 404; a method other than GET or HEAD on a path
// other than /echo is answered 405 with an Allow field. Routes for an exact
// path are entries of the table New builds.
package site

//go:generate go run genpng.go

import (
	"bytes"
	"html"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/echo"
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
}

// addrMark stands in index.html for the URL of the server, scheme and
// host:port without a final "/".
const addrMark = "{{base}}"

// Site serves the default site. Create it with New; it is safe for
// concurrent use by the server's connections.
type Site struct {
	index  [][]byte                 // the home page, split at each addrMark
	routes map[string]brisk.Handler // GET and HEAD routes by exact path
	static staticFiles
	echo   bool
}

// New returns the site cfg describes. It fails when cfg.Root cannot be
// opened as a directory.
func New(cfg Config) (*Site, error) {
	index, err := indexHTML()
	if err != nil {
		return nil, err
	}
	st, err := newStaticFiles(cfg.Root)
	if err != nil {
		return nil, err
	}
	s := &Site{index: bytes.Split(index, []byte(addrMark)), static: st, echo: cfg.Echo}
	s.routes = map[string]brisk.Handler{
		"/":          s.home,
		"/plaintext": plaintext,
		"/json":      jsonHello,
		"/healthz":   healthz,
	}
	return s, nil
}

// Close releases the directory Config.Root, if one was opened.
func (s *Site) Close() error { return s.static.Close() }

// Sent is what Serve reports about a response body the site streamed
// itself (a file of Config.Root) rather than left in the buffered body.
type Sent struct {
	// Streamed is true when the body was streamed: Bytes and Err then
	// describe it. When false, the body is c.Response.Body(), written
	// after the handler returns.
	Streamed bool

	// Bytes is the number of body bytes written to the connection before
	// the stream ended: all of them when Err is nil.
	Bytes int64

	// Err is why the stream ended early (the client went away, a write
	// timed out, the file was shorter than its size), or nil. After an
	// error the connection is closed without completing the body, so the
	// client sees it cut short.
	Err error
}

// Handle is the site's brisk.Handler.
func (s *Site) Handle(c *brisk.Ctx) { s.Serve(c) }

// Serve is Handle that also reports a streamed body, for an access log.
func (s *Site) Serve(c *brisk.Ctx) Sent {
	path := c.Request.Path()
	if s.echo {
		echo.Handle(c) // conformance probes: always JSON
		return Sent{}
	}
	if string(path) == "/echo" {
		serveEcho(c)
		return Sent{}
	}
	if !isGetOrHead(c.Request.Method()) {
		c.Response.Header.Set("Allow", "GET, HEAD")
		setText(c, 405, "405 method not allowed\n")
		return Sent{}
	}
	if h, ok := s.routes[string(path)]; ok {
		h(c)
		return Sent{}
	}
	if name, ok := cutStaticPrefix(path); ok {
		return s.static.serve(c, name)
	}
	notFound(c)
	return Sent{}
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

func isGetOrHead(method []byte) bool {
	return string(method) == "GET" || string(method) == "HEAD"
}

// setText answers code with body as text/plain.
func setText(c *brisk.Ctx, code int, body string) {
	c.Response.SetStatusCode(code)
	c.Response.Header.Set("Content-Type", "text/plain; charset=utf-8")
	c.Response.SetBodyString(body)
}

func notFound(c *brisk.Ctx) { setText(c, 404, "404 page not found\n") }
