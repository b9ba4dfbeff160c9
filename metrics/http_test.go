package metrics_test

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/certs"
	"github.com/brisk-http/brisk/metrics"
	"github.com/brisk-http/brisk/router"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape serves reg with metrics.Handler and returns its families as
// parsed by Prometheus's text parser.
func scrape(t *testing.T, reg *prometheus.Registry) map[string]*dto.MetricFamily {
	t.Helper()
	hc := &brisk.HostClient{Addr: serve(t, &brisk.Server{Handler: metrics.Handler(reg)})}
	defer hc.CloseIdleConnections()
	var req brisk.Request
	var resp brisk.Response
	req.SetTarget("/metrics")
	if err := hc.Do(&req, &resp); err != nil {
		t.Fatal(err)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(strings.NewReader(string(resp.Body())))
	if err != nil {
		t.Fatalf("parsing /metrics: %v\n%.3000s", err, resp.Body())
	}
	return mfs
}

// labelsOf returns m's labels as a map.
func labelsOf(m *dto.Metric) map[string]string {
	l := map[string]string{}
	for _, p := range m.GetLabel() {
		l[p.GetName()] = p.GetValue()
	}
	return l
}

// sampleCount returns the sample count of the series of family name
// whose labels include want, or -1 when there is none.
func sampleCount(mfs map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	mf := mfs[name]
	if mf == nil {
		return -1
	}
next:
	for _, m := range mf.GetMetric() {
		l := labelsOf(m)
		for k, v := range want {
			if l[k] != v {
				continue next
			}
		}
		switch mf.GetType() {
		case dto.MetricType_HISTOGRAM:
			return float64(m.GetHistogram().GetSampleCount())
		case dto.MetricType_COUNTER:
			return m.GetCounter().GetValue()
		case dto.MetricType_GAUGE:
			return m.GetGauge().GetValue()
		}
	}
	return -1
}

// rawExchange sends raw on a new connection to addr and returns the
// status line of the answer.
func rawExchange(t *testing.T, addr, raw string) string {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(nc, raw)
	b, _ := io.ReadAll(nc)
	line, _, _ := strings.Cut(string(b), "\r\n")
	return line
}

// waitGauge waits up to 5 s for the gauge series of name with labels to
// be want.
func waitGauge(t *testing.T, reg *prometheus.Registry, name string, labels map[string]string, want float64) {
	t.Helper()
	var got float64
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]*dto.MetricFamily{}
		for _, mf := range mfs {
			m[mf.GetName()] = mf
		}
		if got = sampleCount(m, name, labels); got == want {
			return
		}
	}
	t.Fatalf("%s%v = %v after 5s, want %v", name, labels, got, want)
}

// TestHTTPServerMetrics: requests are counted under the semantic
// conventions' names and labels, with bounded label values (an unknown
// method is _OTHER, an unrouted path's route is "", never the path);
// requests rejected before the handler count once, in the request
// histogram too; connections leave their states when they close; the
// exposition parses and passes promlint.
func TestHTTPServerMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	r := router.New()
	r.Handle("GET /users/{id}", func(c *brisk.Ctx) { c.Response.WriteString("user") })
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		if strings.HasPrefix(string(c.Request.Path()), "/users/") {
			r.Serve(c)
			return
		}
		statusHandler(c)
	}}
	metrics.Install(srv, metrics.NewHTTPServer(reg))
	addr := serve(t, srv)

	hc := &brisk.HostClient{Addr: addr}
	do := func(method, target string) {
		t.Helper()
		var req brisk.Request
		var resp brisk.Response
		req.SetMethod(method)
		req.SetTarget(target)
		if err := hc.Do(&req, &resp); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		do("GET", fmt.Sprintf("/users/%d", i))
	}
	do("POST", "/201")
	do("FROB", "/204")
	do("GET", "/999")
	hc.CloseIdleConnections()
	for _, raw := range []string{
		"GET /x HTTP/1.1\r\n\r\n", // no Host: 400, head does not parse
		"GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999999\r\n\r\n", // 413: head parsed, OnRequestDone too
		"GET /" + strings.Repeat("a", 9000) + " HTTP/1.1\r\nHost: x\r\n\r\n", // 414
	} {
		rawExchange(t, addr, raw)
	}
	waitGauge(t, reg, "brisk_server_connections", map[string]string{"state": "idle"}, 0)
	waitGauge(t, reg, "brisk_server_connections", map[string]string{"state": "active"}, 0)
	waitGauge(t, reg, "brisk_server_connections", map[string]string{"state": "new"}, 0)

	mfs := scrape(t, reg)
	const dur = "http_server_request_duration_seconds"
	for _, tc := range []struct {
		labels map[string]string
		want   float64
	}{
		{map[string]string{"http_request_method": "GET", "http_response_status_code": "200", "http_route": "GET /users/{id}", "network_protocol_version": "1.1"}, 3},
		{map[string]string{"http_request_method": "POST", "http_response_status_code": "201", "http_route": ""}, 1},
		{map[string]string{"http_request_method": "_OTHER", "http_response_status_code": "204"}, 1},
		{map[string]string{"http_request_method": "GET", "http_response_status_code": "500"}, 1}, // the status sent for 999
		{map[string]string{"http_request_method": "GET", "http_response_status_code": "400"}, 1},
		{map[string]string{"http_request_method": "GET", "http_response_status_code": "413"}, 1},
		{map[string]string{"http_response_status_code": "414"}, 1},
	} {
		if got := sampleCount(mfs, dur, tc.labels); got != tc.want {
			t.Errorf("%s%v: %v requests, want %v", dur, tc.labels, got, tc.want)
		}
	}
	for code, want := range map[string]float64{"400": 1, "413": 1, "414": 1} {
		if got := sampleCount(mfs, "brisk_server_rejected_requests_total", map[string]string{"http_response_status_code": code}); got != want {
			t.Errorf("rejected %s: %v, want %v", code, got, want)
		}
	}
	var total uint64
	for _, m := range mfs[dur].GetMetric() {
		total += m.GetHistogram().GetSampleCount()
		if route := labelsOf(m)["http_route"]; strings.Contains(route, "/users/0") || route == "/201" {
			t.Errorf("route label %q is a path", route)
		}
	}
	if total != 9 {
		t.Errorf("%d requests in %s, want 9 (6 served, 3 rejected)", total, dur)
	}
	for _, name := range []string{"http_server_request_body_size_bytes", "http_server_response_body_size_bytes"} {
		if got := sampleCount(mfs, name, map[string]string{"http_route": "GET /users/{id}"}); got != 3 {
			t.Errorf("%s for the route: %v, want 3", name, got)
		}
	}
	for _, name := range []string{"go_goroutines", "process_open_fds", "http_server_active_requests", "brisk_server_request_errors_total"} {
		if mfs[name] == nil {
			t.Errorf("no %s", name)
		}
	}
	problems, err := testutil.GatherAndLint(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("promlint: %s: %s", p.Metric, p.Text)
	}
}

// TestHTTPServerTLSHandshakes: completed handshakes are counted with
// their version; one that fails (a client speaking plain HTTP) as failed.
func TestHTTPServerTLSHandshakes(t *testing.T) {
	ca, err := certs.NewAuthority("test CA")
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Server("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	srv := &brisk.Server{Handler: statusHandler, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}}
	metrics.Install(srv, metrics.NewHTTPServer(reg))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.ServeTLS(ln, "", "")
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	addr := ln.Addr().String()
	for range 2 {
		tc, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true, MaxVersion: tls.VersionTLS12})
		if err != nil {
			t.Fatal(err)
		}
		tc.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(tc, "GET /200 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		io.ReadAll(tc)
		tc.Close()
	}
	if line := rawExchange(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); !strings.Contains(line, "400") {
		t.Fatalf("plain HTTP to the TLS port: %q, want 400", line)
	}
	waitGauge(t, reg, "brisk_server_tls_handshakes_total", map[string]string{"result": "failed"}, 1)
	waitGauge(t, reg, "brisk_server_tls_handshakes_total", map[string]string{"result": "ok", "tls_protocol_version": "1.2"}, 2)
}

// TestHTTPServerBounded: label values stay in bounded sets whatever the
// request: a status outside 100..599 is _OTHER, and past MaxSeries label
// sets new routes are counted as _OTHER.
func TestHTTPServerBounded(t *testing.T) {
	reg := prometheus.NewRegistry()
	h := metrics.NewHTTPServer(reg)
	h.RequestDone(&brisk.RequestInfo{Method: []byte("GET"), Status: 0})
	for i := range metrics.MaxSeries + 10 {
		h.RequestDone(&brisk.RequestInfo{Method: []byte("GET"), Status: 200, Route: fmt.Sprintf("/r%d", i)})
	}
	mfs := map[string]*dto.MetricFamily{}
	got, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range got {
		mfs[mf.GetName()] = mf
	}
	if n := sampleCount(mfs, "http_server_request_duration_seconds", map[string]string{"http_response_status_code": "_OTHER"}); n != 1 {
		t.Errorf("status 0: %v requests under _OTHER, want 1", n)
	}
	if n := len(mfs["http_server_request_duration_seconds"].GetMetric()); n != metrics.MaxSeries+1 {
		t.Errorf("%d series, want MaxSeries+1", n)
	}
	if n := sampleCount(mfs, "http_server_request_duration_seconds", map[string]string{"http_route": "_OTHER"}); n != 11 {
		t.Errorf("route _OTHER: %v requests, want 11", n)
	}
}

// TestHTTPServerHijacked: a connection a handler took over (an upgrade)
// leaves the connection counts and the active requests while it stays
// open in the handler's hands.
func TestHTTPServerHijacked(t *testing.T) {
	reg := prometheus.NewRegistry()
	taken := make(chan net.Conn, 1)
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		nc, _, err := c.Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		taken <- nc
	}}
	metrics.Install(srv, metrics.NewHTTPServer(reg))
	addr := serve(t, srv)
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	io.WriteString(nc, "GET /ws HTTP/1.1\r\nHost: x\r\n\r\n")
	select {
	case hc := <-taken:
		defer hc.Close()
	case <-time.After(5 * time.Second):
		t.Fatal("not hijacked")
	}
	for _, st := range []string{"new", "active", "idle"} {
		waitGauge(t, reg, "brisk_server_connections", map[string]string{"state": st}, 0)
	}
	waitGauge(t, reg, "http_server_active_requests", nil, 0)
}
