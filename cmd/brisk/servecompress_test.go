package main

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeCompressFlag: -compress is on unless turned off.
func TestServeCompressFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{{nil, true}, {[]string{"-compress=false"}, false}, {[]string{"-compress"}, true}} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		var o compressOptions
		o.register(fs)
		if err := fs.Parse(tc.args); err != nil || o.compress != tc.want {
			t.Errorf("%q: compress %v (%v), want %v", tc.args, o.compress, err, tc.want)
		}
	}
}

// curlServe runs curl with a time limit and returns its stdout, skipping
// the test when curl is not installed.
func curlServe(t *testing.T, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl not installed (Debian package curl)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, append([]string{"-sS"}, args...)...).Output()
	if err != nil {
		t.Fatalf("curl %v: %v", args, err)
	}
	return string(out)
}

// TestServeCompressCurl: `brisk serve -root DIR` sends a script to
// `curl --compressed` in the coding curl prefers (it offers deflate,
// gzip, br and zstd as its build allows), which curl decodes to the
// file, serves the .gz sibling of another, and with -compress=false
// sends both as is.
func TestServeCompressCurl(t *testing.T) {
	dir := t.TempDir()
	app := strings.Repeat("function add(a, b) { return a + b; }\n", 3000)
	if err := os.WriteFile(filepath.Join(dir, "app.js"), []byte(app), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	for _, on := range []bool{true, false} {
		url, _, stop := startServe(t, serveOptions{addr: "127.0.0.1:0", root: dir, compressOptions: compressOptions{on}})
		got := curlServe(t, "--compressed", "-o", out, "-w", "%{http_code} %header{content-encoding} %header{vary} %{size_download}", url+"static/app.js")
		stop()
		f := strings.Fields(got)
		if on && (len(f) != 4 || f[0] != "200" || f[1] == "" || f[2] != "Accept-Encoding" || len(f[3]) >= len("10000")) {
			t.Errorf("-compress: curl wrote %q, want 200, a coding, Vary and under 10000 bytes", got)
		}
		if !on && (len(f) != 2 || f[0] != "200" || f[1] != "111000") {
			t.Errorf("-compress=false: curl wrote %q, want 200, no coding, 111000 bytes", got)
		}
		if b, err := os.ReadFile(out); err != nil || string(b) != app {
			t.Errorf("compress %v: curl saved %d bytes (%v), want the file's %d", on, len(b), err, len(app))
		}
	}
}
