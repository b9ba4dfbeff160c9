package h2

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestBridgedTrailers: through the HTTP/2 bridge, over TLS and h2c, a
// brisk handler sees the request's allowed trailer fields, and of its
// Response.Trailer only the fields RFC 9110 §6.5.1 allows in a trailer
// section reach the client. A request whose declared trailer carries a
// forbidden field (Content-Type) never reaches the handler's body end:
// the HTTP/2 server resets the stream with PROTOCOL_ERROR. (The HTTP/2
// server also drops forbidden response trailers itself; the test pins
// the end-to-end result of both layers.)
func TestBridgedTrailers(t *testing.T) {
	h := func(c *brisk.Ctx) {
		b, err := c.Request.Body()
		if err != nil {
			c.Response.SetStatusCode(400)
			return
		}
		c.Response.Trailer.Set("Content-Length", "99")
		c.Response.Trailer.Set("X-Sum", "4")
		c.Response.Trailer.Set("Transfer-Encoding", "chunked")
		c.Response.Trailer.Set("Content-Type", "text/evil")
		c.Response.Trailer.Set("X-End", "yes")
		w := c.BodyWriter()
		fmt.Fprintf(w, "n=%d\n", len(b))
		for name, value := range c.Request.Trailer.All() {
			fmt.Fprintf(w, "%s: %s\n", name, value)
		}
	}
	for _, tlsOn := range []bool{true, false} {
		srv := &brisk.Server{Handler: h, H2C: !tlsOn}
		if err := Configure(srv, Config{}); err != nil {
			t.Fatal(err)
		}
		addr := serve(t, srv, tlsOn)
		url := map[bool]string{true: "https", false: "http"}[tlsOn] + "://" + addr + "/p"
		c := h2Client(t, tlsOn)

		req := mustRequest(t, "POST", url, strings.NewReader("abc"))
		req.ContentLength = -1 // the bridge passes trailers of a body of unknown length
		req.Trailer = http.Header{"X-Sum": {"4"}}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body := readAll(t, resp)
		wantTrailer := http.Header{"X-Sum": {"4"}, "X-End": {"yes"}}
		if resp.StatusCode != 200 || body != "n=3\nX-Sum: 4\n" || !reflect.DeepEqual(resp.Trailer, wantTrailer) {
			t.Errorf("tls %v: %d %q trailer %v; want 200 %q trailer %v", tlsOn, resp.StatusCode, body, resp.Trailer, "n=3\nX-Sum: 4\n", wantTrailer)
		}

		req = mustRequest(t, "POST", url, strings.NewReader("abc"))
		req.ContentLength = -1
		req.Trailer = http.Header{"Content-Type": {"text/evil"}, "X-Sum": {"4"}}
		resp, err = c.Do(req)
		if err == nil {
			resp.Body.Close()
			t.Fatalf("tls %v: forbidden request trailer: %d, want a PROTOCOL_ERROR stream reset", tlsOn, resp.StatusCode)
		}
		if !strings.Contains(err.Error(), "PROTOCOL_ERROR") {
			t.Errorf("tls %v: forbidden request trailer: %v, want a PROTOCOL_ERROR stream reset", tlsOn, err)
		}
	}
}
