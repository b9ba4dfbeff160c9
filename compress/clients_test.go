package compress

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/files"
)

// startFiles serves dir through files.Server (precompressed siblings)
// behind the middleware on loopback TCP and returns its base URL.
func startFiles(t *testing.T, dir string) string {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	fsrv := &files.Server{FS: root.FS(), Precompressed: true}
	srv := &brisk.Server{Handler: New(Config{})(fsrv.Handle), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	return "http://" + ln.Addr().String()
}

// runScript runs a client script with a time limit, skipping the test
// when the interpreter is not installed.
func runScript(t *testing.T, bin, pkg string, args ...string) string {
	t.Helper()
	path, err := exec.LookPath(bin)
	if err != nil {
		t.Skipf("%s not installed (Debian package %s)", bin, pkg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, out)
	}
	return strings.TrimSpace(string(out))
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestNodeFetch: Node's fetch decodes the gzip and br responses to the
// file on disk, and reads a range.
func TestNodeFetch(t *testing.T) {
	dir := t.TempDir()
	js := jsonBody(100 << 10)
	os.WriteFile(filepath.Join(dir, "app.json"), js, 0o644)
	base := startFiles(t, dir)
	script := `
const crypto = require('crypto');
(async () => {
  for (const enc of ['gzip', 'br']) {
    const r = await fetch(process.argv[1] + '/app.json', {headers: {'Accept-Encoding': enc}});
    const b = Buffer.from(await r.arrayBuffer());
    console.log(r.status, r.headers.get('content-encoding'), crypto.createHash('sha256').update(b).digest('hex'));
  }
  const r = await fetch(process.argv[1] + '/app.json', {headers: {'Range': 'bytes=10-19'}});
  console.log(r.status, r.headers.get('content-range'), await r.text());
})().catch(e => { console.error(e); process.exit(1); });
`
	got := runScript(t, "node", "nodejs", "-e", script, base)
	want := strings.Join([]string{
		"200 gzip " + sha(js),
		"200 br " + sha(js),
		"206 bytes 10-19/" + itoa(len(js)) + " " + string(js[10:20]),
	}, "\n")
	if got != want {
		t.Errorf("node printed\n%s\nwant\n%s", got, want)
	}
}

// TestPythonURLLib: Python's urllib (which decodes nothing) gets gzip
// bytes that gunzip to the file, a range, and a 304 for its ETag.
func TestPythonURLLib(t *testing.T) {
	dir := t.TempDir()
	js := jsonBody(100 << 10)
	os.WriteFile(filepath.Join(dir, "app.json"), js, 0o644)
	base := startFiles(t, dir)
	script := `
import gzip, hashlib, sys, urllib.request, urllib.error
base = sys.argv[1]
r = urllib.request.urlopen(urllib.request.Request(base + '/app.json', headers={'Accept-Encoding': 'gzip'}))
print(r.status, r.headers['Content-Encoding'], hashlib.sha256(gzip.decompress(r.read())).hexdigest())
r = urllib.request.urlopen(urllib.request.Request(base + '/app.json', headers={'Range': 'bytes=-5'}))
print(r.status, r.headers['Content-Range'], r.read().decode())
etag = urllib.request.urlopen(base + '/app.json').headers['ETag']
try:
    urllib.request.urlopen(urllib.request.Request(base + '/app.json', headers={'If-None-Match': etag}))
except urllib.error.HTTPError as e:
    print(e.code)
`
	got := runScript(t, "python3", "python3", "-c", script, base)
	want := strings.Join([]string{
		"200 gzip " + sha(js),
		"206 bytes " + itoa(len(js)-5) + "-" + itoa(len(js)-1) + "/" + itoa(len(js)) + " " + string(js[len(js)-5:]),
		"304",
	}, "\n")
	if got != want {
		t.Errorf("python printed\n%s\nwant\n%s", got, want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
