//go:build !race

package load

import (
	"net"
	"runtime"
	"testing"
)

// TestSteadyStateAllocs checks that the hot loop allocates nothing per
// request: against a server that allocates nothing per request either, a
// run of 20 000 requests allocates about as much as one of 2 000 (both pay
// the fixed cost of connections, buffers and histograms).
func TestSteadyStateAllocs(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	url := "http://" + ln.Addr().String() + "/"
	p, err := newPlan(Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	go serveCanned(ln, len(p.request), []byte("HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!"))
	mallocs := func(n int64) int64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res := run(t, Config{URL: url, Connections: 2, Pipeline: 4, Requests: n})
		runtime.ReadMemStats(&after)
		if res.Requests != n {
			t.Fatalf("requests = %d, want %d", res.Requests, n)
		}
		return int64(after.Mallocs - before.Mallocs)
	}
	mallocs(100) // warm up
	small, large := mallocs(2000), mallocs(20000)
	t.Logf("mallocs: %d for 2000 requests, %d for 20000", small, large)
	if perReq := float64(large-small) / 18000; perReq > 0.01 {
		t.Errorf("%.3f allocations per request (%d for 2000, %d for 20000), want 0", perReq, small, large)
	}
}

// serveCanned answers each request of reqLen bytes on each connection of
// ln with resp, allocating nothing per request.
func serveCanned(ln net.Listener, reqLen int, resp []byte) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			in := make([]byte, 64<<10)
			out := make([]byte, 0, 64*len(resp))
			var received, answered int
			for {
				n, err := c.Read(in)
				if err != nil {
					return
				}
				received += n
				out = out[:0]
				for ; answered < received/reqLen; answered++ {
					out = append(out, resp...)
				}
				if _, err := c.Write(out); err != nil {
					return
				}
			}
		}()
	}
}
