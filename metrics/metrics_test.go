package metrics_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
	"github.com/brisk-http/brisk/metrics"
	"github.com/prometheus/client_golang/prometheus"
)

// serve runs s on loopback until the test ends and returns its address.
func serve(t *testing.T, s *brisk.Server) string {
	t.Helper()
	s.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	return testserver.Start(t, s)
}

// statusHandler answers with the status code named by the path, /204 ...
func statusHandler(c *brisk.Ctx) {
	var code int
	fmt.Sscanf(string(c.Request.Path()), "/%d", &code)
	c.Response.SetStatusCode(code)
}

// run sends n requests for each status over keep-alive connections of a
// brisk client and returns how many got each status class.
func run(t *testing.T, addr string, n int, codes ...int) map[string]int {
	t.Helper()
	hc := &brisk.HostClient{Addr: addr}
	got := map[string]int{}
	for range n {
		for _, code := range codes {
			var req brisk.Request
			var resp brisk.Response
			req.SetTarget(fmt.Sprintf("/%d", code))
			if err := hc.Do(&req, &resp); err != nil {
				t.Fatal(err)
			}
			got[fmt.Sprintf("%dxx", resp.StatusCode()/100)]++
		}
	}
	hc.CloseIdleConnections()
	return got
}

func TestPrometheusCounts(t *testing.T) {
	reg := prometheus.NewRegistry()
	p := metrics.NewPrometheus(reg, "brisk")
	s := &brisk.Server{Handler: statusHandler}
	metrics.Install(s, p)
	addr := serve(t, s)
	got := run(t, addr, 25, 200, 204, 302, 404, 503)
	waitClosed(t, reg) // the last request is counted once its response is out
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			if len(m.GetLabel()) == 0 {
				continue
			}
			class := m.GetLabel()[0].GetValue()
			var n int
			switch mf.GetName() {
			case "brisk_requests_total":
				n = int(m.GetCounter().GetValue())
			case "brisk_request_duration_seconds":
				n = int(m.GetHistogram().GetSampleCount())
			default:
				continue
			}
			seen++
			if n != got[class] {
				t.Errorf("%s{class=%q} = %d, want %d", mf.GetName(), class, n, got[class])
			}
		}
	}
	if seen != 2*len(metrics.Classes) {
		t.Fatalf("%d series, want %d", seen, 2*len(metrics.Classes))
	}
	// Served by brisk in the text format.
	s2 := &brisk.Server{Handler: metrics.Handler(reg)}
	hc := &brisk.HostClient{Addr: serve(t, s2)}
	var req brisk.Request
	var resp brisk.Response
	req.SetTarget("/metrics")
	if err := hc.Do(&req, &resp); err != nil {
		t.Fatal(err)
	}
	if want := `brisk_requests_total{class="2xx"} 50`; !strings.Contains(string(resp.Body()), want+"\n") {
		t.Fatalf("/metrics lacks %q:\n%.2000s", want, resp.Body())
	}
	if ct := string(resp.Header.Get("Content-Type")); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Fatalf("Content-Type %q", ct)
	}
}

// waitClosed waits until brisk_connections_open is 0.
func waitClosed(t *testing.T, reg *prometheus.Registry) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if mf.GetName() == "brisk_connections_open" && mf.GetMetric()[0].GetGauge().GetValue() == 0 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("connections still open after 5s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestExpvarCounts(t *testing.T) {
	e := metrics.NewExpvar()
	s := &brisk.Server{Handler: statusHandler}
	metrics.Install(s, e)
	addr := serve(t, s)
	got := run(t, addr, 20, 200, 301, 400, 500)
	var doc struct {
		Requests map[string]int            `json:"requests"`
		Latency  map[string]map[string]int `json:"latency_seconds"`
		Open     int                       `json:"connections_open"`
		Read     int                       `json:"bytes_read"`
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if err := json.Unmarshal([]byte(e.Var().String()), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Open == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond) // the server sees the close a moment later
	}
	for _, class := range metrics.Classes {
		if doc.Requests[class] != got[class] || doc.Latency[class]["+Inf"] != got[class] {
			t.Errorf("class %s: requests %d, latency +Inf %d, want %d", class, doc.Requests[class], doc.Latency[class]["+Inf"], got[class])
		}
	}
	if doc.Open != 0 || doc.Read == 0 {
		t.Errorf("connections_open %d (want 0), bytes_read %d", doc.Open, doc.Read)
	}
}

// TestOpenConnectionsHijacked: a hijacked connection, which brisk never
// reports closed, leaves the open connections like a closed one.
func TestOpenConnectionsHijacked(t *testing.T) {
	reg := prometheus.NewRegistry()
	p := metrics.NewPrometheus(reg, "brisk")
	e := metrics.NewExpvar()
	for _, o := range []metrics.Observer{p, e} {
		for _, st := range []brisk.ConnState{brisk.StateNew, brisk.StateActive, brisk.StateHijacked,
			brisk.StateNew, brisk.StateNew, brisk.StateActive, brisk.StateIdle, brisk.StateClosed} {
			o.ConnState(nil, st)
		}
	}
	var doc struct {
		Open int `json:"connections_open"`
	}
	if err := json.Unmarshal([]byte(e.Var().String()), &doc); err != nil {
		t.Fatal(err)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	gauge := -1.0
	for _, mf := range mfs {
		if mf.GetName() == "brisk_connections_open" {
			gauge = mf.GetMetric()[0].GetGauge().GetValue()
		}
	}
	if doc.Open != 1 || gauge != 1 {
		t.Fatalf("open connections: expvar %d, prometheus %v; want 1 (three new, one hijacked, one closed)", doc.Open, gauge)
	}
}
