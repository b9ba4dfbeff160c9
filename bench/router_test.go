package bench

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/router"
	fasthttprouter "github.com/fasthttp/router"
	"github.com/go-chi/chi/v5"
	"github.com/julienschmidt/httprouter"
	"github.com/valyala/fasthttp"
)

// routeLine is one route of a table of ../router/testdata/routes: a
// method and a path with ":name" parameters.
type routeLine struct{ method, path string }

func readRoutes(b *testing.B, name string) []routeLine {
	b.Helper()
	f, err := os.Open("../router/testdata/routes/" + name)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var routes []routeLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m, p, ok := strings.Cut(strings.TrimSpace(sc.Text()), " "); ok {
			routes = append(routes, routeLine{m, p})
		}
	}
	return routes
}

// braces rewrites ":name" segments as "{name}".
func braces(path string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if strings.HasPrefix(s, ":") {
			segs[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(segs, "/")
}

// routerCase is a route table and the requests of one benchmark.
type routerCase struct {
	name, table string
	requests    []routeLine // nil: every route of the table, its path as written
}

var routerCases = []routerCase{
	{"GithubStatic", "github.txt", []routeLine{{"GET", "/user/repos"}}},
	{"GithubParam", "github.txt", []routeLine{{"GET", "/repos/julienschmidt/httprouter/stargazers"}}},
	{"GithubAll", "github.txt", nil},
	{"GplusAll", "gplus.txt", nil},
	{"ParseAll", "parse.txt", nil},
	{"StaticAll", "static.txt", nil},
}

// BenchmarkRouter measures routing alone, in process, on the same
// requests: for each route table of ../router/testdata/routes (the sets of
// julienschmidt/go-http-routing-benchmark), one op is every request of
// the case, answered by a handler that does nothing:
//   - brisk: Router.Serve on the Ctx a Server hands its handler for each
//     request (see receivedCtxs);
//   - httprouter, chi, nethttp (net/http.ServeMux): ServeHTTP of an
//     *http.Request built once per request, with a no-op ResponseWriter;
//   - fasthttp (fasthttp/router): Router.Handler on a RequestCtx per
//     request.
func BenchmarkRouter(b *testing.B) {
	for _, impl := range []string{"brisk", "httprouter", "chi", "nethttp", "fasthttp"} {
		b.Run(impl, func(b *testing.B) {
			for _, rc := range routerCases {
				routes := readRoutes(b, rc.table)
				reqs := rc.requests
				if reqs == nil {
					reqs = routes
				}
				b.Run(rc.name, func(b *testing.B) { benchRouter(b, impl, routes, reqs) })
			}
		})
	}
}

func benchRouter(b *testing.B, impl string, routes, reqs []routeLine) {
	switch impl {
	case "brisk":
		benchBriskRouter(b, routes, reqs)
	case "fasthttp":
		benchFastHTTPRouter(b, routes, reqs)
	default:
		benchNetHTTPRouter(b, netHTTPRouter(b, impl, routes), reqs)
	}
}

func benchBriskRouter(b *testing.B, routes, reqs []routeLine) {
	r := router.New()
	for _, rt := range routes {
		if err := r.Register(rt.method+" "+braces(rt.path), func(*brisk.Ctx) {}); err != nil {
			b.Fatal(err)
		}
	}
	ctxs := receivedCtxs(b, reqs)
	for i, rq := range reqs {
		r.Serve(ctxs[i])
		if ctxs[i].Pattern() == "" {
			b.Fatalf("%s %s not routed", rq.method, rq.path)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range ctxs {
			r.Serve(c)
		}
	}
}

// receivedCtxs returns the Ctx of each request of reqs as a brisk Server
// hands it to its handler (the request-target split and its path decoded
// once, as http.NewRequest parses the URL once for the net/http routers):
// a Server on an in-memory listener receives each request on a
// connection of its own, and its handler passes the Ctx on, then waits
// until the benchmark ends (b.Cleanup), so that the Ctx stays valid and
// the server leaves it alone.
func receivedCtxs(b *testing.B, reqs []routeLine) []*brisk.Ctx {
	ln := brisktest.NewListener()
	got, done := make(chan *brisk.Ctx), make(chan struct{})
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) { got <- c; <-done }}
	go srv.Serve(ln)
	ctxs := make([]*brisk.Ctx, len(reqs))
	var conns []net.Conn
	b.Cleanup(func() {
		close(done)
		for _, nc := range conns {
			nc.Close()
		}
		srv.Shutdown(context.Background())
	})
	for i, rq := range reqs {
		nc, err := ln.Dial()
		if err != nil {
			b.Fatal(err)
		}
		conns = append(conns, nc)
		if _, err := io.WriteString(nc, rq.method+" "+rq.path+" HTTP/1.1\r\nHost: api.example.com\r\n\r\n"); err != nil {
			b.Fatal(err)
		}
		ctxs[i] = <-got
	}
	return ctxs
}

func netHTTPRouter(b *testing.B, impl string, routes []routeLine) http.Handler {
	nop := func(http.ResponseWriter, *http.Request) {}
	switch impl {
	case "httprouter":
		r := httprouter.New()
		for _, rt := range routes {
			r.Handle(rt.method, rt.path, func(http.ResponseWriter, *http.Request, httprouter.Params) {})
		}
		return r
	case "chi":
		r := chi.NewRouter()
		for _, rt := range routes {
			r.MethodFunc(rt.method, braces(rt.path), nop)
		}
		return r
	}
	mux := http.NewServeMux()
	for _, rt := range routes {
		mux.HandleFunc(rt.method+" "+braces(rt.path), nop)
	}
	return mux
}

// nopResponseWriter discards the response.
type nopResponseWriter struct{ h http.Header }

func (w *nopResponseWriter) Header() http.Header         { return w.h }
func (w *nopResponseWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *nopResponseWriter) WriteHeader(int)             {}

func benchNetHTTPRouter(b *testing.B, h http.Handler, reqs []routeLine) {
	hreqs := make([]*http.Request, len(reqs))
	for i, rq := range reqs {
		r, err := http.NewRequest(rq.method, rq.path, nil)
		if err != nil {
			b.Fatal(err)
		}
		r.RequestURI = rq.path
		hreqs[i] = r
	}
	w := &nopResponseWriter{h: http.Header{}}
	for _, r := range hreqs {
		rec := &statusWriter{nopResponseWriter: w}
		h.ServeHTTP(rec, r)
		if rec.code != 0 {
			b.Fatalf("%s %s: status %d", r.Method, r.URL.Path, rec.code)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range hreqs {
			h.ServeHTTP(w, r)
		}
	}
}

// statusWriter notes a status code written (the routers' 404 or 405).
type statusWriter struct {
	*nopResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) { w.code = code }

func benchFastHTTPRouter(b *testing.B, routes, reqs []routeLine) {
	r := fasthttprouter.New()
	for _, rt := range routes {
		r.Handle(rt.method, braces(rt.path), func(*fasthttp.RequestCtx) {})
	}
	h := r.Handler
	ctxs := make([]fasthttp.RequestCtx, len(reqs))
	for i, rq := range reqs {
		ctxs[i].Request.Header.SetMethod(rq.method)
		ctxs[i].Request.SetRequestURI(rq.path)
		h(&ctxs[i])
		if c := ctxs[i].Response.StatusCode(); c != 200 {
			b.Fatalf("%s %s: status %d", rq.method, rq.path, c)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := range ctxs {
			h(&ctxs[i])
		}
	}
}
