package bench

import (
	"context"
	"io"
	"log"
	"log/slog"
	"net/http"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"
)

// adaptorHandler is the net/http handler of BenchmarkAdaptor: it sets a
// field and writes the 13-byte body.
var adaptorHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain")
	w.Write([]byte(serverHelloBody))
})

// BenchmarkAdaptor serves the same net/http handler through brisk's
// FromHTTP, through fasthttpadaptor.NewFastHTTPHandler on fasthttp, and
// on net/http.Server itself, over the same fake connections (tfb GET,
// 10,000 requests per connection), as the server benchmarks do.
func BenchmarkAdaptor(b *testing.B) {
	req := readFixture(b, "tfb")
	servers := map[string]func() twinServer{
		"brisk": func() twinServer {
			s := &brisk.Server{Handler: brisk.FromHTTP(adaptorHandler), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
			return twinServer{serve: s.Serve, stop: func() { s.Shutdown(context.Background()) }}
		},
		"fasthttpadaptor": func() twinServer {
			s := &fasthttp.Server{Handler: fasthttpadaptor.NewFastHTTPHandler(adaptorHandler),
				NoDefaultServerHeader: true, Logger: log.New(io.Discard, "", 0)}
			return twinServer{serve: s.Serve, stop: func() { s.Shutdown() }}
		},
		"nethttp": func() twinServer {
			s := &http.Server{Handler: adaptorHandler, ErrorLog: log.New(io.Discard, "", 0)}
			return twinServer{serve: s.Serve, stop: func() { s.Shutdown(context.Background()) }}
		},
	}
	for _, name := range []string{"brisk", "fasthttpadaptor", "nethttp"} {
		b.Run(name, func(b *testing.B) {
			benchmarkServer(b, servers[name](), req, 10000, 1)
		})
	}
}
