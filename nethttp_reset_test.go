package brisk

import (
	"context"
	"net/http/httptest"
	"testing"
)

// TestHTTPHandlerGoneBeforeStart: a request whose context is already
// done when HTTPHandler's ServeHTTP begins (an HTTP/2 stream the client
// reset before its handler goroutine ran: the rapid-reset pattern) is
// not served: the brisk handler is not run, nothing is written, no
// OnRequestDone; a live request is served.
func TestHTTPHandlerGoneBeforeStart(t *testing.T) {
	var ran, done int
	s := &Server{Handler: func(c *Ctx) { ran++; c.Response.WriteString("ok") }, OnRequestDone: func(*RequestInfo) { done++ }}
	h := s.HTTPHandler()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil).WithContext(ctx))
	if ran != 0 || done != 0 || w.Body.Len() != 0 || w.Flushed {
		t.Fatalf("gone request: handler ran %d times, %d records, %d bytes written", ran, done, w.Body.Len())
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if ran != 1 || done != 1 || w.Code != 200 || w.Body.String() != "ok" {
		t.Fatalf("live request: handler ran %d times, %d records, %d %q", ran, done, w.Code, w.Body.String())
	}
}
