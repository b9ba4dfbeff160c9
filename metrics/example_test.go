package metrics_test

import (
	"context"
	"fmt"
	"net"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/metrics"
	"github.com/prometheus/client_golang/prometheus"
)

// Prometheus metrics for a server, served by a second server on /metrics.
func ExampleInstall() {
	reg := prometheus.NewRegistry()
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) { c.Response.WriteString("hello") }}
	metrics.Install(srv, metrics.NewPrometheus(reg, "app"), metrics.NewExpvar())
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	admin := &brisk.Server{Handler: metrics.Handler(reg)}
	aln, _ := net.Listen("tcp", "127.0.0.1:0")
	go admin.Serve(aln)
	defer admin.Shutdown(context.Background())

	for _, addr := range []string{ln.Addr().String(), ln.Addr().String(), aln.Addr().String()} {
		hc := &brisk.HostClient{Addr: addr}
		var req brisk.Request
		var resp brisk.Response
		req.SetTarget("/metrics")
		if err := hc.Do(&req, &resp); err != nil {
			fmt.Println(err)
			return
		}
		if addr == aln.Addr().String() {
			for _, line := range strings.Split(string(resp.Body()), "\n") {
				if len(line) > 0 && line[0] != '#' && strings.Contains(line, "requests_total") {
					fmt.Println(line)
				}
			}
		}
	}
	// Output:
	// app_requests_total{class="1xx"} 0
	// app_requests_total{class="2xx"} 2
	// app_requests_total{class="3xx"} 0
	// app_requests_total{class="4xx"} 0
	// app_requests_total{class="5xx"} 0
	// app_requests_total{class="other"} 0
}
