package brisk

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestToHTTPAddrs: a bridged request's Ctx.LocalAddr is the net/http
// listener's address (http.LocalAddrContextKey, network "tcp") and
// Ctx.RemoteAddr the request's RemoteAddr, on every request of a
// keep-alive connection whose exchange is pooled.
func TestToHTTPAddrs(t *testing.T) {
	s := &Server{Handler: func(c *Ctx) {
		c.Response.SetBodyString(c.LocalAddr().Network() + " " + c.LocalAddr().String() + " " + c.RemoteAddr().String())
	}}
	h := s.HTTPHandler()
	var remote string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		remote = r.RemoteAddr
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	for i := range 3 {
		resp, err := ts.Client().Get(ts.URL)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if want := "tcp " + ts.Listener.Addr().String() + " " + remote; string(body) != want {
			t.Errorf("request %d: handler saw %q, want %q", i, body, want)
		}
	}
}
