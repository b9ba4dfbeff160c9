//go:build !race

package reverseproxy

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestProxyAllocs: a proxied request allocates nothing in steady state,
// counted over the whole process: the client, the proxy and the upstream
// (brisk's client and server allocate nothing themselves).
func TestProxyAllocs(t *testing.T) {
	body := bytes.Repeat([]byte("x"), 64<<10)
	var mu sync.Mutex
	drain := make([]byte, 16<<10) // Request.Body would allocate for 64 KiB
	up := backend(t, func(c *brisk.Ctx) {
		if string(c.Request.Method()) == "POST" {
			mu.Lock()
			n, err := io.CopyBuffer(io.Discard, c.Request.BodyReader(), drain)
			mu.Unlock()
			if err != nil || n != int64(len(body)) {
				c.Response.SetStatusCode(400)
			}
			return
		}
		c.Response.Header.Set("Content-Type", "text/plain")
		if string(c.Request.Path()) == "/big" {
			c.Response.Write(body)
			return
		}
		c.Response.WriteString("Hello, World!")
	})
	addr := front(t, &Proxy{Upstreams: []string{up}})
	hc := &brisk.HostClient{Addr: addr}
	for _, tc := range []struct {
		name, method, target string
		body                 []byte
	}{
		{"plaintext", "GET", "/", nil},
		{"64KiB_response", "GET", "/big", nil},
		{"64KiB_request", "POST", "/", body},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var req brisk.Request
			var resp brisk.Response
			req.SetMethod(tc.method)
			req.SetTarget(tc.target)
			req.SetHost("example.com")
			req.Header.Set("X-Forwarded-For", "10.0.0.1")
			req.Header.Set("User-Agent", "alloc-test")
			do := func() {
				if tc.body != nil {
					req.SetBody(tc.body)
				}
				if err := hc.Do(&req, &resp); err != nil || resp.StatusCode() != 200 {
					t.Fatalf("%d %v", resp.StatusCode(), err)
				}
			}
			for range 200 {
				do()
			}
			if n := testing.AllocsPerRun(200, do); n > 0 {
				t.Errorf("%v allocations per proxied request, want 0", n)
			}
		})
	}
}
