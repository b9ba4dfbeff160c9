package h2

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestBridgeAnswersBeforeBody: a brisk handler that answers without
// reading the request body (a refusal, a 413, a CONNECT refused by a
// proxy) has its response sent while the client's stream is still open,
// as net/http's HTTP/2 server does: HTTP/2 is full duplex and the stream
// ends on its own, so nothing is drained first. A client waiting for the
// response before it sends its body (an h2 CONNECT, Expect-less uploads
// that stop on an error) would otherwise wait until a timeout.
func TestBridgeAnswersBeforeBody(t *testing.T) {
	for _, tc := range []struct {
		tlsOn bool
		size  int64
	}{{true, 100 << 10}, {true, -1}, {false, 100 << 10}, {false, -1}} {
		tlsOn := tc.tlsOn
		srv := &brisk.Server{H2C: !tlsOn, Handler: func(c *brisk.Ctx) {
			c.Response.SetStatusCode(http.StatusMethodNotAllowed)
			c.Response.SetBodyString("refused")
		}}
		if err := Configure(srv, Config{}); err != nil {
			t.Fatal(err)
		}
		addr := serve(t, srv, tlsOn)
		scheme := "http://"
		if tlsOn {
			scheme = "https://"
		}
		pr, pw := io.Pipe() // a body that does not end
		t.Cleanup(func() { pw.Close() })
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "POST", scheme+addr+"/", pr)
		req.ContentLength = tc.size
		go pw.Write([]byte("abc"))
		resp, err := h2Client(t, tlsOn).Do(req)
		if err != nil {
			t.Fatalf("tls %v size %d: %v; want the 405 while the body is open", tlsOn, tc.size, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || string(body) != "refused" {
			t.Errorf("tls %v: %d %q; want 405 refused", tlsOn, resp.StatusCode, body)
		}
	}
}
