package main

import (
	"context"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeAdmin: /debug/pprof/ is never on the public listener; -admin
// serves it, /metrics (then off the public listener), /healthz and
// /readyz on a listener of its own.
func TestServeAdmin(t *testing.T) {
	t.Run("default", func(t *testing.T) {
		o := serveOptions{addr: "127.0.0.1:0"}
		o.deploy.metricsOn = true
		url, _, stop := startServe(t, o)
		defer stop()
		for path, want := range map[string]int{"debug/pprof/": 404, "debug/pprof/cmdline": 404, "metrics": 200, "readyz": 200} {
			if code, _ := get(t, url+path); code != want {
				t.Errorf("public GET /%s: %d, want %d", path, code, want)
			}
		}
	})
	t.Run("admin", func(t *testing.T) {
		o := serveOptions{addr: "127.0.0.1:0"}
		o.deploy.metricsOn = true
		o.deploy.admin = "127.0.0.1:0"
		lines, stop := startServeLines(t, o, 2)
		defer stop()
		url := strings.TrimPrefix(lines[0], "brisk: serving ")
		admin, ok := strings.CutPrefix(lines[1], "brisk: admin (pprof, metrics, health) on ")
		if !ok || !strings.HasPrefix(admin, "http://127.0.0.1:") || admin == url {
			t.Fatalf("second line %q, want the admin listener's URL", lines[1])
		}
		for path, want := range map[string]int{"debug/pprof/": 404, "debug/pprof/cmdline": 404, "metrics": 404, "readyz": 200, "plaintext": 200} {
			if code, _ := get(t, url+path); code != want {
				t.Errorf("public GET /%s: %d, want %d", path, code, want)
			}
		}
		for _, tc := range []struct{ path, body string }{
			{"debug/pprof/", "Types of profiles available"},
			{"debug/pprof/goroutine?debug=1", "goroutine profile:"},
			{"metrics", "\nhttp_server_request_duration_seconds_count{"},
			{"healthz", "ok\n"},
			{"readyz", "ready\n"},
		} {
			if code, body := get(t, admin+tc.path); code != 200 || !strings.Contains(body, tc.body) {
				t.Errorf("admin GET /%s: %d %.200q, want 200 with %q", tc.path, code, body, tc.body)
			}
		}
		if code, _ := get(t, admin+"plaintext"); code != 404 {
			t.Errorf("admin GET /plaintext: %d, want 404 (the site is on the public listener only)", code)
		}
	})
	t.Run("help", func(t *testing.T) {
		_, stdout, _ := runArgs("serve", "-h")
		for _, want := range []string{"-admin host:port", "There is no admin listener unless asked", "never served on the public listener"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("serve -h lacks %q:\n%s", want, stdout)
			}
		}
	})
}

// TestServeAdminEveryInterface: an -admin address with no host (":6060",
// as net/http/pprof's docs write it, or "0.0.0.0:6060") listens on every
// interface, which makes pprof reachable from any network: serve warns on
// stderr, naming the flag's value. It used to print only "admin (pprof,
// metrics, health) on http://localhost:PORT/", which reads as loopback.
// A loopback -admin gets no warning.
func TestServeAdminEveryInterface(t *testing.T) {
	for _, tc := range []struct {
		admin string
		warn  bool
	}{{"0.0.0.0:0", true}, {"127.0.0.1:0", false}} {
		t.Run(tc.admin, func(t *testing.T) {
			o := serveOptions{addr: "127.0.0.1:0"}
			o.deploy.admin = tc.admin
			_, stderr, stop := startServe(t, o)
			stop()
			got := strings.Contains(stderr.String(), "-admin "+tc.admin+" listens on every network interface")
			if got != tc.warn {
				t.Errorf("stderr %q: warning %v, want %v", stderr.String(), got, tc.warn)
			}
		})
	}
}

// TestServeAdminProfileClientGone: a CPU profile whose client went away
// stops, as on net/http (pprof.Profile waits on the request's context),
// so the next profile can be taken. The admin server did not cancel a
// request's context when its client closed (client-close cancellation
// was off by default then): "profile?seconds=100000" from
// a client that gave up kept the process profiling for 28 hours, and
// every later profile failed with 500 "cpu profiling already in use".
func TestServeAdminProfileClientGone(t *testing.T) {
	o := serveOptions{addr: "127.0.0.1:0"}
	o.deploy.admin = "127.0.0.1:0"
	lines, stop := startServeLines(t, o, 2)
	defer stop()
	admin, ok := strings.CutPrefix(lines[1], "brisk: admin (pprof, metrics, health) on ")
	if !ok {
		t.Fatalf("second line %q, want the admin listener's URL", lines[1])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", admin+"debug/pprof/profile?seconds=100000", nil)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	if resp, err := tr.RoundTrip(req); err == nil { // the client gives up after 300 ms
		resp.Body.Close()
		t.Fatalf("a profile of 100000 s answered %d at once", resp.StatusCode)
	}
	var code int
	var body string
	for range 20 { // the server sees the close within its next read
		if code, body = get(t, admin+"debug/pprof/profile?seconds=1"); code == 200 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("profile after the first one's client left: %d %.100q, want 200", code, body)
}

// TestServeAdminNotAsked: without -admin and -metrics, neither pprof nor
// /metrics is served anywhere: the public listener answers 404.
func TestServeAdminNotAsked(t *testing.T) {
	url, _, stop := startServe(t, serveOptions{addr: "127.0.0.1:0"})
	defer stop()
	for _, path := range []string{"debug/pprof/", "debug/pprof/cmdline", "metrics"} {
		if code, _ := get(t, url+path); code != 404 {
			t.Errorf("public GET /%s: %d, want 404", path, code)
		}
	}
}

// TestServeAdminReadyzDrain: once SIGTERM starts the drain, the admin
// listener's /readyz answers 503 (as the public one does) while
// /healthz stays 200: the process is alive, not ready.
func TestServeAdminReadyzDrain(t *testing.T) {
	o := serveOptions{addr: "127.0.0.1:0", signals: &stopSignals{ch: make(chan os.Signal, 1)}}
	o.deploy.admin = "127.0.0.1:0"
	o.deploy.drainWait = 2 * time.Second
	lines, stop := startServeLines(t, o, 2)
	defer stop()
	admin, _ := strings.CutPrefix(lines[1], "brisk: admin (pprof, metrics, health) on ")
	if code, _ := get(t, admin+"readyz"); code != 200 {
		t.Fatalf("admin /readyz before the drain: %d, want 200", code)
	}
	o.signals.ch <- syscall.SIGTERM
	var code int
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if code, _ = get(t, admin+"readyz"); code == 503 {
			break
		}
	}
	if code != 503 {
		t.Fatalf("admin /readyz while draining: %d, want 503", code)
	}
	if code, _ := get(t, admin+"healthz"); code != 200 {
		t.Errorf("admin /healthz while draining: %d, want 200", code)
	}
}
