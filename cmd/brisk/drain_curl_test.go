package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/peer"
)

// TestDrainCurlKeepAlive: curl downloads a file twice on one keep-alive
// connection while brisk serve drains (SIGTERM): the download begun
// before the drain ends whole and keeps its connection, the next
// response on it says "Connection: close", and both succeed (no
// "Connection 0 seems to be dead").
func TestDrainCurlKeepAlive(t *testing.T) {
	curl := peer.Need(t, "curl", "apt-get install curl")
	dir := t.TempDir()
	const size = 16 << 20
	if err := os.WriteFile(filepath.Join(dir, "big"), make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	o := serveOptions{addr: "127.0.0.1:0", root: dir, signals: &stopSignals{ch: make(chan os.Signal, 1)}}
	o.deploy.drainWait = time.Second
	url, _, stop := startServe(t, o)
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	file := url + "static/big"
	cmd := exec.CommandContext(ctx, curl, "-sS", "-v", "--limit-rate", "16M",
		"-w", "%{http_code} %{size_download} %{num_connects}\n", "-o", "/dev/null", "-o", "/dev/null", file, file)
	var out, verbose strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &verbose
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the first download is under way
	o.signals.ch <- syscall.SIGTERM
	err := cmd.Wait()
	want := "200 16777216 1\n200 16777216 0\n"
	if err != nil || out.String() != want {
		t.Fatalf("curl: %v\n%q, want %q\n%s", err, out.String(), want, verbose.String())
	}
	v := verbose.String()
	if strings.Count(v, "< Connection: close") != 1 || !strings.Contains(v, "Re-using existing connection") ||
		strings.Contains(v, "seems to be dead") {
		t.Fatalf("want the first response keep-alive, the second Connection: close on the same connection:\n%s", v)
	}
}
