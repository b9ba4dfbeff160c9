package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
	"github.com/brisk-http/brisk/reverseproxy"
	"golang.org/x/net/http2"
)

//lint:file-ignore SA1019 x/net v0.62.0 deprecates http2.Transport for net/http's; these tests keep the x/net client that the server side is tested against

// startProxy runs `brisk proxy` with o until the test ends, returning
// its URL and stderr.
func startProxy(t *testing.T, o *proxyOptions) (url string, stderr *syncbuf.Buffer) {
	t.Helper()
	pr, pw := io.Pipe()
	stderr = new(syncbuf.Buffer)
	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	go func() {
		exit <- runProxyServer(ctx, o, pw, stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("no URL printed: %v; stderr %q", err, stderr.String())
	}
	go io.Copy(io.Discard, pr)
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "brisk: proxying ")
	if !ok {
		t.Fatalf("first line %q", line)
	}
	url, _, _ = strings.Cut(rest, " to ")
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-exit:
			if code != exitOK {
				t.Errorf("proxy exited %d; stderr %q", code, stderr.String())
			}
		case <-time.After(15 * time.Second):
			t.Error("proxy did not return after cancel")
		}
	})
	return url, stderr
}

// TestProxyCommand: `brisk proxy -to A,B -balance round-robin -log` in
// front of two `brisk serve` sites spreads requests over both, logs each
// with its upstream, and answers /readyz itself.
func TestProxyCommand(t *testing.T) {
	a, _, stopA := startServe(t, serveOptions{addr: "127.0.0.1:0"})
	defer stopA()
	b, _, stopB := startServe(t, serveOptions{addr: "127.0.0.1:0", echo: true})
	defer stopB()
	o := &proxyOptions{listen: "127.0.0.1:0", log: true}
	o.p.Upstreams = []string{strings.TrimSuffix(a, "/"), strings.TrimSuffix(b, "/")}
	o.p.Balance = reverseproxy.RoundRobin
	url, stderr := startProxy(t, o)
	seen := map[bool]int{}
	for range 4 {
		code, body := get(t, url+"plaintext")
		if code != 200 {
			t.Fatalf("status %d", code)
		}
		seen[body == "Hello, World!"]++
	}
	if seen[true] != 2 || seen[false] != 2 {
		t.Errorf("round robin: %v, want 2 and 2", seen)
	}
	if code, _ := get(t, url+"readyz"); code != 200 {
		t.Errorf("/readyz: %d", code)
	}
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(stderr.String(), "msg=proxy") < 4 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if log := stderr.String(); !strings.Contains(log, "upstream="+o.p.Upstreams[0]) || !strings.Contains(log, "upstream_status=200") {
		t.Errorf("access log %q", log)
	}
}

// TestProxyCommandUsage: a missing or invalid -to is a usage error.
func TestProxyCommandUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-to", "ftp://x"}, {"-to", "http://x", "-balance", "random"}, {"-to", "http://x", "-forward", "bogus"}} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"proxy"}, args...), &out, &errb); code != exitUsage {
			t.Errorf("%q: exit %d, want %d; stderr %q", args, code, exitUsage, errb.String())
		}
	}
}

// TestProxyCommandHTTP2: `brisk proxy -tls` answers HTTP/2 over TLS
// (ALPN h2) and `brisk proxy -h2c` with prior knowledge, with
// -proxy-protocol too: a GET and a streamed POST reach the upstream
// (`brisk serve -echo`) with Via "2" and the client's address from the
// PROXY header, and each is logged with its upstream.
func TestProxyCommandHTTP2(t *testing.T) {
	up, _, stop := startServe(t, serveOptions{addr: "127.0.0.1:0", echo: true})
	defer stop()
	for _, tc := range []struct {
		name    string
		o       tlsOptions
		proxied bool
	}{
		{"tls", tlsOptions{tls: true}, false},
		{"h2c", tlsOptions{h2c: true}, false},
		{"tls_proxy", tlsOptions{tls: true}, true},
		{"h2c_proxy", tlsOptions{h2c: true}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &proxyOptions{listen: "127.0.0.1:0", log: true, tlsOptions: tc.o}
			o.p.Upstreams = []string{strings.TrimSuffix(up, "/")}
			from := "127.0.0.1"
			if tc.proxied {
				o.deploy.proxyFrom = prefixList{netip.MustParsePrefix("127.0.0.1/32")}
				from = "192.0.2.7"
			}
			url, stderr := startProxy(t, o)
			tr := &http2.Transport{AllowHTTP: true, DialTLSContext: func(ctx context.Context, network, addr string, conf *tls.Config) (net.Conn, error) {
				var d net.Dialer
				nc, err := d.DialContext(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				if tc.proxied {
					io.WriteString(nc, "PROXY TCP4 192.0.2.7 127.0.0.1 5555 80\r\n")
				}
				if !tc.o.tls {
					return nc, nil
				}
				conf = conf.Clone()
				conf.InsecureSkipVerify = true
				tc := tls.Client(nc, conf)
				if err := tc.HandshakeContext(ctx); err != nil {
					nc.Close()
					return nil, err
				}
				return tc, nil
			}}
			defer tr.CloseIdleConnections()
			cl := &http.Client{Transport: tr, Timeout: 10 * time.Second}
			resp, err := cl.Get(url + "get")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if e := decodeEcho(t, body); resp.Proto != "HTTP/2.0" || resp.StatusCode != 200 ||
				e.field("Via") != "2 brisk" || e.field("X-Forwarded-For") != from {
				t.Errorf("GET: %s %d, upstream got %q", resp.Proto, resp.StatusCode, e.Headers)
			}
			pr, pw := io.Pipe()
			go func() {
				for range 4 {
					io.WriteString(pw, strings.Repeat("x", 16<<10))
				}
				pw.Close()
			}()
			resp, err = cl.Post(url+"post", "application/octet-stream", pr)
			if err != nil {
				t.Fatal(err)
			}
			body, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			if e := decodeEcho(t, body); resp.StatusCode != 200 || string(e.Body) != strings.Repeat("x", 64<<10) {
				t.Errorf("POST: %d, upstream got %d bytes, want 64 KiB", resp.StatusCode, len(e.Body))
			}
			deadline := time.Now().Add(5 * time.Second)
			for strings.Count(stderr.String(), "msg=proxy") < 2 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if log := stderr.String(); strings.Count(log, "upstream_status=200") != 2 || !strings.Contains(log, "remote="+from) {
				t.Errorf("access log %q", log)
			}
		})
	}
}

// echo is the JSON echo format of `brisk serve -echo` (bytes in base64).
type echo struct {
	Headers [][2][]byte `json:"headers"`
	Body    []byte      `json:"body"`
}

func decodeEcho(t *testing.T, b []byte) echo {
	t.Helper()
	var e echo
	if err := json.Unmarshal(b, &e); err != nil {
		t.Errorf("echo %.100q: %v", b, err)
	}
	return e
}

// field returns the values of the field name, comma-joined.
func (e echo) field(name string) string {
	var v []string
	for _, f := range e.Headers {
		if strings.EqualFold(string(f[0]), name) {
			v = append(v, string(f[1]))
		}
	}
	return strings.Join(v, ", ")
}

// TestProxyCommandMetrics: `brisk proxy -metrics` counts each proxied
// request under its upstream and status, times its response head, and
// counts a failed one under its phase.
func TestProxyCommandMetrics(t *testing.T) {
	up, _, stop := startServe(t, serveOptions{addr: "127.0.0.1:0"})
	defer stop()
	dead := "http://" + closedAddr(t)
	o := &proxyOptions{listen: "127.0.0.1:0"}
	o.deploy.metricsOn = true
	o.p.Upstreams = []string{strings.TrimSuffix(up, "/"), dead}
	o.p.Balance = reverseproxy.RoundRobin
	o.p.MaxRetries = -1
	url, _ := startProxy(t, o)
	codes := map[int]int{}
	for range 4 {
		code, _ := get(t, url+"plaintext")
		codes[code]++
	}
	_, body := get(t, url+"metrics")
	for _, want := range []string{
		`brisk_proxy_upstream_requests_total{status="200",upstream="` + o.p.Upstreams[0] + `"} ` + strconv.Itoa(codes[200]),
		`brisk_proxy_upstream_requests_total{status="0",upstream="` + dead + `"} ` + strconv.Itoa(codes[502]),
		`brisk_proxy_upstream_response_head_seconds_count{upstream="` + o.p.Upstreams[0] + `"} ` + strconv.Itoa(codes[200]),
		`brisk_proxy_upstream_errors_total{phase="dial",upstream="` + dead + `"} ` + strconv.Itoa(codes[502]),
	} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("/metrics lacks %q (statuses %v)", want, codes)
		}
	}
	if codes[200] == 0 || codes[502] == 0 {
		t.Errorf("statuses %v, want 200s and 502s", codes)
	}
}

// closedAddr returns a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
