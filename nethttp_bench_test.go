package brisk

import (
	"net/http"
	"strings"
	"testing"
)

// allocRecorder is a ResponseWriter that keeps its header map and
// records nothing, so that only the bridge's allocations are counted.
type allocRecorder struct {
	h    http.Header
	code int
	n    int
}

func (w *allocRecorder) Header() http.Header         { return w.h }
func (w *allocRecorder) WriteHeader(code int)        { w.code = code }
func (w *allocRecorder) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// BenchmarkToHTTP serves a GET through Server.HTTPHandler whose brisk
// handler sets a 13-byte body and response fields: one common field
// (Content-Type), six uncommon ones in canonical form, or the same six
// in lower case; it measures the copy of the response's fields to the
// ResponseWriter's header.
func BenchmarkToHTTP(b *testing.B) {
	uncommon := []string{"X-Request-Id", "Access-Control-Allow-Origin", "Strict-Transport-Security",
		"X-Content-Type-Options", "Referrer-Policy", "Etag"}
	for _, bc := range []struct {
		name   string
		fields []string
	}{
		{"common", []string{"Content-Type"}},
		{"uncommon", uncommon},
		{"lowercase", lower(uncommon)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			w, serve := toHTTPGet(bc.fields)
			b.ReportAllocs()
			for b.Loop() {
				serve()
			}
			if w.code != 200 || len(w.h) != len(bc.fields)+2 { // and Content-Length, Date
				b.Fatalf("response %d, header %v", w.code, w.h)
			}
		})
	}
}

// toHTTPGet returns serve, which serves an HTTP/2 GET (as h2load sends
// it) through the Server.HTTPHandler of a brisk handler that sets each
// of fields to "text/plain" and the body "Hello, World!", and w, the
// ResponseWriter that serve clears and serves into.
func toHTTPGet(fields []string) (w *allocRecorder, serve func()) {
	h := (&Server{Handler: func(c *Ctx) {
		for _, f := range fields {
			c.Response.Header.Set(f, "text/plain")
		}
		c.Response.SetBodyString("Hello, World!")
	}}).HTTPHandler()
	r, _ := http.NewRequest("GET", "http://example.com/plaintext", nil)
	r.RequestURI, r.RemoteAddr = "/plaintext", "192.0.2.1:1234"
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/2.0", 2, 0
	r.Header = http.Header{"Accept": {"*/*"}, "User-Agent": {"h2load"}}
	w = &allocRecorder{h: make(http.Header)}
	return w, func() {
		clear(w.h)
		w.n = 0
		h.ServeHTTP(w, r)
	}
}

func lower(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.ToLower(n)
	}
	return out
}
