package compress

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/files"
)

// TestChromium loads a page whose script and style sheet arrive
// compressed (with the coding Chromium prefers among those it offers:
// zstd for the Debian build here, gzip for builds that offer br and zstd
// over HTTPS only) and checks, in the DOM Chromium dumps, that the script
// ran and the style applied.
func TestChromium(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (Debian package chromium)")
	}
	dir := t.TempDir()
	pages := map[string]string{
		"index.html": `<!doctype html><html><head><link rel="stylesheet" href="style.css">` +
			`<script src="app.js"></script></head><body><p id="out">not run</p></body></html>`,
		"style.css": "p { color: rgb(1, 2, 3) }\n" + strings.Repeat("/* padding to pass MinSize */\n", 60),
		"app.js": `window.addEventListener("load", () => { const p = document.getElementById("out");` +
			` p.textContent = "ran " + getComputedStyle(p).color; });` + "\n" +
			strings.Repeat("// padding to pass MinSize\n", 60),
	}
	for name, data := range pages {
		os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var mu sync.Mutex
	encodings := map[string]string{}
	h := New(Config{})((&files.Server{FS: root.FS()}).Handle)
	srv := &brisk.Server{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Handler: func(c *brisk.Ctx) {
		h(c)
		mu.Lock()
		encodings[string(c.Request.Path())] = string(c.Response.Header.Get("Content-Encoding"))
		mu.Unlock()
	}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+t.TempDir(), "--dump-dom", "http://"+ln.Addr().String()+"/index.html")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	if !strings.Contains(string(out), `<p id="out">ran rgb(1, 2, 3)</p>`) {
		t.Errorf("script or style did not apply; DOM:\n%s", out)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range []string{"/app.js", "/style.css"} {
		if e := encodings[p]; e != Gzip && e != Zstd && e != Brotli {
			t.Errorf("%s: Content-Encoding %q, want a compression (all: %v)", p, e, encodings)
		}
	}
}
