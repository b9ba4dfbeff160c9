//go:build !race

package metrics_test

import (
	"net"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/metrics"
	"github.com/prometheus/client_golang/prometheus"
)

// TestHTTPServerAllocs: a request of a label set already seen, and the
// state changes of a known connection, allocate nothing.
func TestHTTPServerAllocs(t *testing.T) {
	h := metrics.NewHTTPServer(prometheus.NewRegistry())
	in := &brisk.RequestInfo{Method: []byte("GET"), Status: 200, Route: "GET /x"}
	h.RequestDone(in)
	nc, _ := net.Pipe()
	h.ConnState(nc, brisk.StateNew)
	if n := testing.AllocsPerRun(100, func() {
		h.ConnState(nc, brisk.StateActive)
		h.RequestDone(in)
		h.ConnState(nc, brisk.StateIdle)
	}); n != 0 {
		t.Errorf("%v allocations per request, want 0", n)
	}
}
