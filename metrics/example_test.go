package metrics_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/metrics"
	"github.com/prometheus/client_golang/prometheus"
)

// Prometheus metrics for a server, which serves them on /metrics too.
func ExampleInstall() {
	reg := prometheus.NewRegistry()
	serveMetrics := metrics.Handler(reg)
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		if string(c.Request.Path()) == "/metrics" {
			serveMetrics(c)
			return
		}
		c.Response.WriteString("hello")
	}}
	metrics.Install(srv, metrics.NewPrometheus(reg, "app"))
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	// One keep-alive connection: each request is counted before the next
	// one is read.
	hc := &brisk.HostClient{Addr: ln.Addr().String()}
	for _, target := range []string{"/", "/a", "/metrics"} {
		var req brisk.Request
		var resp brisk.Response
		req.SetTarget(target)
		if err := hc.Do(&req, &resp); err != nil {
			fmt.Println(err)
			return
		}
		if target != "/metrics" {
			continue
		}
		for _, line := range strings.Split(string(resp.Body()), "\n") {
			if strings.HasPrefix(line, "app_requests_total") {
				fmt.Println(line)
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

// Request counts in expvar, to publish with expvar.Publish.
func ExampleNewExpvar() {
	e := metrics.NewExpvar()
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) { c.Response.SetStatusCode(404) }}
	metrics.Install(srv, e)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go srv.Serve(ln)

	hc := &brisk.HostClient{Addr: ln.Addr().String()}
	var req brisk.Request
	var resp brisk.Response
	req.SetTarget("/nothing")
	hc.Do(&req, &resp)
	hc.CloseIdleConnections()
	srv.Shutdown(context.Background()) // once the connection closed, after the hook
	fmt.Println(e.Var().Get("requests"))
	// Output: {"1xx": 0, "2xx": 0, "3xx": 0, "4xx": 1, "5xx": 0, "other": 0}
}

// The OpenTelemetry HTTP server metrics, by method, status, route and
// protocol, with a request rejected before the handler counted too.
func ExampleNewHTTPServer() {
	reg := prometheus.NewRegistry()
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		c.SetRoute("GET /users/{id}") // what a router records
		c.Response.WriteString("user")
	}}
	metrics.Install(srv, metrics.NewHTTPServer(reg))
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	for _, raw := range []string{
		"GET /users/7 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
		"GET /users/8 HTTP/1.1\r\nConnection: close\r\n\r\n", // no Host: 400
	} {
		nc, _ := net.Dial("tcp", ln.Addr().String())
		nc.Write([]byte(raw))
		io.ReadAll(nc) // the server closes: the request was counted before
		nc.Close()
	}
	mfs, _ := reg.Gather()
	for _, mf := range mfs {
		if mf.GetName() != "http_server_request_duration_seconds" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				fmt.Printf("%s=%q ", l.GetName(), l.GetValue())
			}
			fmt.Println(m.GetHistogram().GetSampleCount())
		}
	}
	// Output:
	// http_request_method="GET" http_response_status_code="200" http_route="GET /users/{id}" network_protocol_version="1.1" 1
	// http_request_method="GET" http_response_status_code="400" http_route="" network_protocol_version="1.1" 1
}
