// Package site is the default site of `brisk serve`: a small HTML page, the
// TechEmpower plaintext and JSON shapes, an echo endpoint, a health check and
// a few static files, all embedded in the binary.
//
//	/            index.html (GET, HEAD)
//	/plaintext   "Hello, World!" as text/plain
//	/json        {"message":"Hello, World!"} as application/json
//	/echo        the request in the echo format of package echo (any method)
//	/healthz     "ok"
//	/static/...  embedded files, or the files of Config.Root
//	/ws          a WebSocket echo (interop.go)
//	/debug/pprof/ net/http/pprof (interop.go)
//
// Any other path is answered 404; a method other than GET or HEAD on a path
// other than /echo is answered 405 with an Allow field.
package site

//go:generate go run genpng.go

import (
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

// Site serves the default site. Create it with New; it is safe for
// concurrent use by the server's connections.
type Site struct {
	index  []byte // the home page
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
	return &Site{index: index, static: st, echo: cfg.Echo}, nil
}

// Close releases the directory Config.Root, if one was opened.
func (s *Site) Close() error { return s.static.Close() }

// Handle is the site's brisk.Handler.
func (s *Site) Handle(c *brisk.Ctx) {
	path := c.Request.Path()
	if s.echo || string(path) == "/echo" {
		echo.Handle(c)
		return
	}
	if h := interopHandler(path); h != nil {
		h(c)
		return
	}
	if !isGetOrHead(c.Request.Method()) {
		c.Response.Header.Set("Allow", "GET, HEAD")
		setText(c, 405, "405 method not allowed\n")
		return
	}
	switch string(path) {
	case "/":
		c.Response.Header.Set("Content-Type", "text/html; charset=utf-8")
		c.Response.SetBody(s.index)
	case "/plaintext":
		c.Response.Header.Set("Content-Type", "text/plain")
		c.Response.SetBodyString("Hello, World!")
	case "/json":
		c.Response.Header.Set("Content-Type", "application/json")
		c.Response.SetBodyString(`{"message":"Hello, World!"}`)
	case "/healthz":
		setText(c, 200, "ok")
	default:
		if name, ok := cutStaticPrefix(path); ok {
			s.static.serve(c, name)
			return
		}
		notFound(c)
	}
}

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
