//go:build !race

package brisk

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/brisk-http/brisk/internal/fakenet"
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
