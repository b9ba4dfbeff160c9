package brisk

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestToHTTPClientIP: behind net/http (and so over HTTP/2 with package
// h2), Ctx.RemoteAddr is the request's RemoteAddr string and ClientIP
// its IP, not the zero Addr.
func TestToHTTPClientIP(t *testing.T) {
	ts := httptest.NewServer(ToHTTP(func(c *Ctx) {
		c.Response.WriteString(c.ClientIP().String())
	}))
	defer ts.Close()
	resp, err := http.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); string(b) != "127.0.0.1" {
		t.Fatalf("ClientIP %q, want 127.0.0.1", b)
	}
}
