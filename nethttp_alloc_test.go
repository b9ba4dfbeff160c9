//go:build !race

package brisk

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
)

// TestFromHTTPAllocs is the allocation budget of a GET served through
// FromHTTP (handler sets a field, writes 13 bytes): 8 per request, among
// them the *http.Request copy carrying its context, the cancellable
// context and its value wrapper, RequestURI and the field-section
// string (the URL of a plain origin-form target and a TCP client's
// address string are reused); net/http.Server itself makes 20
// (BenchmarkAdaptor in bench/).
func TestFromHTTPAllocs(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("Hello, World!"))
	})
	ln := fakenet.NewListener()
	s := &Server{Handler: FromHTTP(h), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	go s.Serve(ln)
	defer s.Shutdown(context.Background())
	req := fixture(t, "tfb.http")
	const perConn = 200
	batch := fakenet.Batch(req, 1)
	serve := func() {
		c := fakenet.NewConn(batch, len(req), perConn)
		ln.Push(c)
		<-c.Done()
	}
	serve() // warm the pools
	perReq := testing.AllocsPerRun(20, serve) / perConn
	if perReq > 8.1 {
		t.Errorf("%.2f allocations per request, budget 8", perReq)
	}
}

// TestToHTTPAllocs is the allocation budget of a GET served through
// Server.HTTPHandler (the brisk handler sets a field and a 13-byte body,
// as bench/tls.sh's) from an HTTP/2 request: 2 per request, the string
// of the response's field section and the slice of values that the
// ResponseWriter's header shares (it keeps them: they are not pooled).
// Fields named neither commonly nor in lower case (X-Request-Id,
// Strict-Transport-Security) cost nothing more: their keys are
// substrings of that string.
func TestToHTTPAllocs(t *testing.T) {
	for _, tt := range []struct {
		name   string
		fields []string
	}{
		{"content_type", []string{"Content-Type"}},
		{"uncommon", []string{"Content-Type", "X-Request-Id", "Strict-Transport-Security"}},
	} {
		w, serve := toHTTPGet(tt.fields)
		serve()
		if w.code != 200 || w.n != 13 || w.h.Get("Content-Length") != "13" || w.h.Get(tt.fields[len(tt.fields)-1]) != "text/plain" {
			t.Fatalf("%s: response %d, %d body bytes, header %v", tt.name, w.code, w.n, w.h)
		}
		if n := testing.AllocsPerRun(200, serve); n > 2 {
			t.Errorf("%s: %.1f allocations per request, budget 2", tt.name, n)
		}
	}
}
