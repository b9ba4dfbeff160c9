package h3

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestForbiddenTrailers: over HTTP/3, trailer fields RFC 9110 §6.5.1
// rules out of a trailer section (Content-Length, Transfer-Encoding,
// Content-Type, Host) are neither given to the handler in
// Request.Trailer nor sent from its Response.Trailer; the allowed ones
// are. (quic-go's HTTP/3 layer filters them too; the test pins the
// end-to-end result of both layers.)
func TestForbiddenTrailers(t *testing.T) {
	f := start(t, func(c *brisk.Ctx) {
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
	}, nil)
	req, _ := http.NewRequest("POST", f.url("/trailers"), io.NopCloser(bytes.NewReader([]byte("abc"))))
	req.ContentLength = -1
	req.Trailer = http.Header{"Content-Type": {"text/evil"}, "Host": {"evil"}, "X-Sum": {"4"}}
	resp, err := f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	wantTrailer := http.Header{"X-Sum": {"4"}, "X-End": {"yes"}}
	if resp.StatusCode != 200 || string(b) != "n=3\nX-Sum: 4\n" || !reflect.DeepEqual(resp.Trailer, wantTrailer) {
		t.Errorf("%d %q trailer %v; want 200 %q trailer %v", resp.StatusCode, b, resp.Trailer, "n=3\nX-Sum: 4\n", wantTrailer)
	}
}
