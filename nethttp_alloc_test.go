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
// FromHTTP (handler sets a field, writes 13 bytes): 8 per request with
// IgnoreClientClose, among them the *http.Request copy carrying its
// context, the cancellable context and its value wrapper, RequestURI and
// the field-section string (the URL of a plain origin-form target and a
// TCP client's address string are reused); 6 more by default, for the
// client-close watch that r.Context() asks for (its cancellable context,
// the children of that context, the goroutine of the background read);
// net/http.Server itself makes 20 (BenchmarkAdaptor in bench/).
func TestFromHTTPAllocs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ignore bool
		budget float64
	}{
		{"ignore_client_close", true, 8},
		{"default", false, 14},
	} {
		t.Run(tc.name, func(t *testing.T) { testFromHTTPAllocs(t, tc.ignore, tc.budget) })
	}
}

func testFromHTTPAllocs(t *testing.T, ignoreClientClose bool, budget float64) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("Hello, World!"))
	})
	ln := fakenet.NewListener()
	s := &Server{Handler: FromHTTP(h), IgnoreClientClose: ignoreClientClose,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
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
	if perReq > budget+0.1 {
		t.Errorf("%.2f allocations per request, budget %v", perReq, budget)
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
