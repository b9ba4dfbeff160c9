package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
	"github.com/brisk-http/brisk/reverseproxy"
)

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
