package reverseproxy

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestProxyHealthCheck: an upstream whose health check answers 503 gets
// no request until its check passes again.
func TestProxyHealthCheck(t *testing.T) {
	var sick atomic.Bool
	sick.Store(true)
	named := func(name string, s *atomic.Bool) brisk.Handler {
		return func(c *brisk.Ctx) {
			if string(c.Request.Path()) == "/healthz" && s != nil && s.Load() {
				c.Response.SetStatusCode(503)
				return
			}
			c.Response.WriteString(name)
		}
	}
	p := &Proxy{Upstreams: []string{backend(t, named("a", &sick)), backend(t, named("b", nil))},
		Balance: RoundRobin, HealthCheck: "/healthz", HealthInterval: 50 * time.Millisecond}
	addr := front(t, p)
	t.Cleanup(p.Close)
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	waitFor := func(want map[string]bool) {
		t.Helper()
		deadline := time.Now().Add(testTimeout)
		for {
			seen := map[string]bool{}
			for range 6 {
				_, body, err := roundTrip(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
				if err != nil {
					t.Fatal(err)
				}
				seen[body] = true
			}
			if len(seen) == len(want) && seen["a"] == want["a"] && seen["b"] == want["b"] {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("upstreams answering %v, want %v", seen, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor(map[string]bool{"b": true})
	sick.Store(false)
	waitFor(map[string]bool{"a": true, "b": true})
}
