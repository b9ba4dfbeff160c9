package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/peer"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"golang.org/x/net/http2"
)

//lint:file-ignore SA1019 x/net v0.62.0 deprecates http2.Transport for net/http's; these tests keep the x/net client that the server side is tested against

// hostileRequest carries, in the fields an access log records, what a
// client would send to forge log fields or lines: quotes, a backslash,
// a tab and bytes outside ASCII (the parser refuses CR, LF and other
// controls in field values).
const hostileRequest = "GET /plaintext?a=%22b HTTP/1.1\r\nHost: h.example\r\n" +
	"User-Agent: ev\"il\t\xff\\agent\r\nReferer: x\" 200 1 \"y\r\nX-Request-ID: abc-123\r\nConnection: close\r\n\r\n"

// TestServeAccessLogFormats: each -log-format writes one line per
// request with the client, time, request line, status, bytes and, but
// for common, the referer, user agent, duration, host and request ID;
// what the client sent is escaped so that it cannot end a field or a
// line.
func TestServeAccessLogFormats(t *testing.T) {
	const clfHead = `^127\.0\.0\.1 - - \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\] "GET /plaintext\?a=%22b HTTP/1\.1" 200 `
	for _, tc := range []struct {
		format string
		want   string // a regexp of the line, for common and combined
	}{
		{formatCommon, clfHead + `(\d+)$`},
		{formatCombined, clfHead + `(\d+) "x\\" 200 1 \\"y" "ev\\"il\\x09\\xff\\\\agent" \d+ "h\.example" "abc-123"$`},
		{formatText, `^time=\S+ level=INFO msg=request method=GET target="/plaintext\?a=%22b" proto=HTTP/1\.1 status=200 bytes=(\d+) duration_us=\d+ ` +
			`client=127\.0\.0\.1 remote=127\.0\.0\.1:\d+ host=h\.example user_agent="ev\\"il\\t\\xff\\\\agent" referer="x\\" 200 1 \\"y" request_id=abc-123$`},
		{formatJSON, ""},
	} {
		t.Run(tc.format, func(t *testing.T) {
			url, stderr, stop := startServe(t, serveOptions{addr: "127.0.0.1:0", log: true, observe: observeOptions{format: tc.format}})
			resp := exchange(t, url, "GET", hostileRequest)
			stop()
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			var logged []string
			for _, l := range lines {
				if !strings.Contains(l, "shutting down") {
					logged = append(logged, l)
				}
			}
			if len(logged) != 1 {
				t.Fatalf("%d lines, want 1:\n%s", len(logged), stderr.String())
			}
			line := logged[0]
			if tc.format == formatJSON {
				checkJSONLine(t, line, len(resp))
				return
			}
			m := regexp.MustCompile(tc.want).FindStringSubmatch(line)
			if m == nil {
				t.Fatalf("line\n%s\ndoes not match\n%s", line, tc.want)
			}
			if m[1] != strconv.Itoa(len(resp)) {
				t.Errorf("bytes %s, want %d", m[1], len(resp))
			}
		})
	}
}

// checkJSONLine checks a JSON access-log line of hostileRequest.
func checkJSONLine(t *testing.T, line string, size int) {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(line), &doc); err != nil {
		t.Fatalf("%v: %s", err, line)
	}
	want := map[string]any{
		"level": "INFO", "msg": "request", "method": "GET", "target": "/plaintext?a=%22b", "proto": "HTTP/1.1",
		"status": 200.0, "bytes": float64(size), "client": "127.0.0.1", "host": "h.example",
		"user_agent": "ev\"il\t\ufffd\\agent", "referer": "x\" 200 1 \"y", "request_id": "abc-123",
	}
	for k, v := range want {
		if doc[k] != v {
			t.Errorf("%s: %#v, want %#v", k, doc[k], v)
		}
	}
	if _, err := time.Parse(time.RFC3339Nano, doc["time"].(string)); err != nil {
		t.Errorf("time: %v", err)
	}
	if d, ok := doc["duration_us"].(float64); !ok || d < 0 {
		t.Errorf("duration_us %#v, want a number of microseconds", doc["duration_us"])
	}
}

// TestServeAccessLogResetStorm: a burst of clients that reset their
// connections while their responses are being written is not one INFO
// line each: at the default level they are counted and summed up in one
// line; -metrics counts them by type.
func TestServeAccessLogResetStorm(t *testing.T) {
	const clients = 100
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	o := serveOptions{addr: "127.0.0.1:0", root: dir, log: true}
	o.deploy.metricsOn = true
	url, stderr, stop := startServe(t, o)
	defer stop()
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			nc, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			tc := nc.(*net.TCPConn)
			tc.SetReadBuffer(16 << 10)
			tc.SetDeadline(time.Now().Add(10 * time.Second))
			io.WriteString(tc, "GET /static/big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
			io.ReadFull(tc, make([]byte, 1024)) // the response is being written
			tc.SetLinger(0)
			tc.Close() // RST
		})
	}
	wg.Wait()
	// Wait for the server to have seen every reset: the metric counts them.
	var body string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		_, body = get(t, url+"metrics")
		if resetCount(body) >= clients {
			break
		}
	}
	if n := resetCount(body); n != clients {
		t.Errorf("brisk_server_request_errors_total{error_type=\"reset\"} = %d, want %d", n, clients)
	}
	log := stderr.String()
	n := 0
	for _, l := range strings.Split(log, "\n") {
		if l != "" && !strings.Contains(l, "target=/metrics") { // the scrapes above
			n++
		}
	}
	if n > 2 {
		t.Errorf("%d log lines for %d resets, want at most 2 (a summary):\n%.2000s", n, clients, log)
	}
	if !strings.Contains(log, `msg="requests cut short by their clients`) {
		t.Errorf("no summary line:\n%s", log)
	}
}

// resetCount returns the reset requests counted in a /metrics body.
func resetCount(body string) int {
	m := regexp.MustCompile(`(?m)^brisk_server_request_errors_total\{error_type="reset"\} (\d+)$`).FindStringSubmatch(body)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestServeLogLevel: -log-level warn keeps the Info access lines out;
// debug shows what the default hides.
func TestServeLogLevel(t *testing.T) {
	for _, tc := range []struct {
		level slog.Level
		lines int
	}{{slog.LevelWarn, 0}, {slog.LevelInfo, 1}} {
		url, stderr, stop := startServe(t, serveOptions{addr: "127.0.0.1:0", log: true, observe: observeOptions{level: tc.level}})
		exchange(t, url, "GET", "GET /plaintext HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		stop()
		if n := strings.Count(stderr.String(), "msg=request"); n != tc.lines {
			t.Errorf("-log-level %v: %d access lines, want %d:\n%s", tc.level, n, tc.lines, stderr.String())
		}
	}
}

// TestServeObserveFlags: the flags take the documented values and refuse
// others with a usage error.
func TestServeObserveFlags(t *testing.T) {
	for _, args := range [][]string{{"-log-format", "apache"}, {"-log-level", "verbose"}} {
		code, _, stderr := runArgs(append([]string{"serve"}, args...)...)
		if code != exitUsage || !strings.Contains(stderr, args[1]) {
			t.Errorf("%v: exit %d, stderr %q; want %d naming the value", args, code, stderr, exitUsage)
		}
	}
	var o observeOptions
	if err := o.setLevel("DEBUG"); err != nil || o.level != slog.LevelDebug {
		t.Errorf("-log-level DEBUG: %v, %v", o.level, err)
	}
	_, stdout, _ := runArgs("serve", "-h")
	for _, want := range []string{"-log-format format", "-log-level level", "combined"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("serve -h lacks %q", want)
		}
	}
}

// TestServeObserveHTTP2: HTTP/2 requests, over TLS (ALPN h2) and over
// cleartext with prior knowledge (-h2c), reach `brisk serve -log
// -metrics` through the same hooks as HTTP/1.1: one log line each with
// proto HTTP/2.0, and the request histogram counts them under
// network_protocol_version "2".
func TestServeObserveHTTP2(t *testing.T) {
	const n = 3
	for _, tc := range []struct {
		name string
		tls  tlsOptions
	}{{"tls", tlsOptions{tls: true}}, {"h2c", tlsOptions{h2c: true}}} {
		t.Run(tc.name, func(t *testing.T) {
			o := serveOptions{addr: "127.0.0.1:0", log: true, tlsOptions: tc.tls}
			o.deploy.metricsOn = true
			url, stderr, stop := startServe(t, o)
			defer stop()
			tr := &http2.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}
			if tc.tls.h2c {
				tr.AllowHTTP = true
				tr.DialTLSContext = func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
					var d net.Dialer
					return d.DialContext(ctx, network, addr)
				}
			}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
			fetch := func(path string) string {
				resp, err := client.Get(url + path)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				if resp.ProtoMajor != 2 || resp.StatusCode != 200 {
					t.Fatalf("GET /%s: %s %d, want HTTP/2.0 200", path, resp.Proto, resp.StatusCode)
				}
				return string(b)
			}
			for range n {
				fetch("plaintext")
			}
			series := regexp.MustCompile(`(?m)^http_server_request_duration_seconds_count\{http_request_method="GET",http_response_status_code="200",http_route="GET /plaintext",network_protocol_version="2"\} (\d+)$`)
			m := series.FindStringSubmatch(fetch("metrics"))
			if m == nil || m[1] != strconv.Itoa(n) {
				t.Errorf("h2 requests in /metrics: %v, want %d", m, n)
			}
			re := regexp.MustCompile(`msg=request method=GET target=/plaintext proto=HTTP/2.0 status=200 `)
			for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if len(re.FindAllString(stderr.String(), -1)) >= n {
					break
				}
			}
			if got := len(re.FindAllString(stderr.String(), -1)); got != n {
				t.Errorf("%d h2 log lines, want %d:\n%s", got, n, stderr.String())
			}
		})
	}
}

// TestServeMetricsPromtool: the /metrics of `brisk serve -metrics` after
// served, rejected and reset requests passes `promtool check metrics`
// (Prometheus's own linter) and parses with Prometheus's text parser.
func TestServeMetricsPromtool(t *testing.T) {
	promtool := peer.Need(t, "promtool", "Debian package prometheus")
	o := serveOptions{addr: "127.0.0.1:0"}
	o.deploy.metricsOn = true
	url, _, stop := startServe(t, o)
	defer stop()
	get(t, url+"plaintext")
	get(t, url+"hello/x")
	get(t, url+"missing")
	exchange(t, url, "GET", "GET /x HTTP/1.1\r\n\r\n") // 400, rejected before the handler
	_, body := get(t, url+"metrics")
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parsing /metrics: %v", err)
	}
	for _, name := range []string{"http_server_request_duration_seconds", "http_server_request_body_size_bytes",
		"http_server_response_body_size_bytes", "http_server_active_requests", "brisk_server_connections",
		"brisk_server_rejected_requests_total", "brisk_server_accept_errors_total", "go_goroutines", "process_open_fds"} {
		if mfs[name] == nil {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(body)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

// TestServeAccessLogClient: the client of a log line is the one the
// server trusts: the source of a PROXY header from a -proxy-protocol
// peer, the X-Forwarded-For hop of a -trusted-proxies peer, else the
// peer; remote is the connection's (PROXY source or peer).
func TestServeAccessLogClient(t *testing.T) {
	for _, tc := range []struct {
		name, proxyFrom, trusted, raw, want string
	}{
		{"proxy_v1", "127.0.0.1", "", "PROXY TCP4 198.51.100.9 127.0.0.1 5555 80\r\n",
			`client=198\.51\.100\.9 remote=198\.51\.100\.9:5555 `},
		{"forwarded", "", "127.0.0.1", "", `client=203\.0\.113\.7 remote=127\.0\.0\.1:\d+ `},
		{"untrusted", "", "", "", `client=127\.0\.0\.1 remote=127\.0\.0\.1:\d+ `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := serveOptions{addr: "127.0.0.1:0", log: true}
			if tc.proxyFrom != "" {
				o.deploy.proxyFrom.Set(tc.proxyFrom)
			}
			if tc.trusted != "" {
				o.deploy.trusted.Set(tc.trusted)
			}
			url, stderr, stop := startServe(t, o)
			defer stop()
			exchange(t, url, "GET", tc.raw+"GET /plaintext HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.7\r\nConnection: close\r\n\r\n")
			waitLog(t, stderr, regexp.MustCompile(`msg=request method=GET target=/plaintext proto=HTTP/1.1 status=200 bytes=\d+ duration_us=\d+ `+tc.want))
		})
	}
}

// TestServeObserveTLS: HTTPS with HTTP/1.1 is logged and counted like
// cleartext, and its TLS handshake is counted with its version.
func TestServeObserveTLS(t *testing.T) {
	o := serveOptions{addr: "127.0.0.1:0", log: true, tlsOptions: tlsOptions{tls: true}}
	o.deploy.metricsOn = true
	url, stderr, stop := startServe(t, o)
	defer stop()
	tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
		TLSNextProto: map[string]func(string, *tls.Conn) http.RoundTripper{}} // HTTP/1.1 only
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	var body string
	for _, path := range []string{"plaintext", "metrics"} { // one keep-alive connection
		resp, err := client.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body = string(b)
	}
	if !strings.Contains(body, "\nbrisk_server_tls_handshakes_total{result=\"ok\",tls_protocol_version=\"1.3\"} 1\n") {
		t.Errorf("/metrics lacks one TLS 1.3 handshake:\n%.3000s", body)
	}
	if !strings.Contains(body, `http_server_request_duration_seconds_count{http_request_method="GET",http_response_status_code="200",http_route="GET /plaintext",network_protocol_version="1.1"} 1`) {
		t.Errorf("/metrics lacks the HTTPS request")
	}
	waitLog(t, stderr, regexp.MustCompile(`msg=request method=GET target=/plaintext proto=HTTP/1.1 status=200 bytes=\d+ duration_us=\d+ client=127\.0\.0\.1 `))
}
