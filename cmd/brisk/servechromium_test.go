package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeChromium loads the demo site from `brisk serve -tls` in
// headless Chromium (--ignore-certificate-errors: the certificate is
// self-signed) and reads the protocol it used from its net log: h2.
func TestServeChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not found in PATH; install it with: apt-get install chromium")
	}
	lines, stop := startServeLines(t, serveOptions{addr: "127.0.0.1:0", tlsOptions: tlsOptions{tls: true}}, 1)
	defer stop()
	url := strings.TrimPrefix(lines[0], "brisk: serving ")
	dir := t.TempDir()
	netlog := filepath.Join(dir, "netlog.json")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dom, err := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--ignore-certificate-errors", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--log-net-log="+netlog, "--dump-dom", url).Output()
	if err != nil || !strings.Contains(string(dom), "<title>brisk</title>") {
		t.Fatalf("chromium --dump-dom %s (%v):\n%.300s", url, err, dom)
	}
	log, err := os.ReadFile(netlog)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), `"negotiated_protocol":"h2"`) {
		t.Fatalf("chromium's net log shows no negotiated_protocol h2 for %s", url)
	}
}
