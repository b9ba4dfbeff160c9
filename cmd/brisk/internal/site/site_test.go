package site

import (
	"bufio"
	"bytes"
	"image/png"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// startSite serves a Site for cfg on a loopback port until the test ends
// and returns its address.
func startSite(t *testing.T, cfg Config) string {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Registered first so it runs after the server's shutdown cleanup.
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return testserver.Start(t, &brisk.Server{Handler: s.Handle})
}

// rawGet sends "GET target" on a new connection and reads one response.
func rawGet(t *testing.T, addr, method, target string) (*http.Response, []byte) {
	t.Helper()
	return rawExchange(t, addr, method, method+" "+target+" HTTP/1.1\r\nHost: x\r\n\r\n")
}

// rawRequest sends the GET request req on a new connection and reads one
// response.
func rawRequest(t *testing.T, addr, req string) (*http.Response, []byte) {
	t.Helper()
	return rawExchange(t, addr, "GET", req)
}

// rawExchange sends req on a new connection and reads one response to
// method.
func rawExchange(t *testing.T, addr, method, req string) (*http.Response, []byte) {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(nc, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(nc), &http.Request{Method: method})
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func mustEmbedded(t *testing.T, name string) []byte {
	t.Helper()
	b, err := embedded.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRoutes(t *testing.T) {
	tests := []struct {
		name, method, target string
		status               int
		ctype                string
		body                 []byte // nil: not checked
	}{
		{"home", "GET", "/", 200, "text/html; charset=utf-8", nil}, // TestHome
		{"plaintext", "GET", "/plaintext", 200, "text/plain", []byte("Hello, World!")},
		{"json", "GET", "/json", 200, "application/json", []byte(`{"message":"Hello, World!"}`)},
		{"healthz", "GET", "/healthz", 200, "text/plain; charset=utf-8", []byte("ok")},
		{"png", "GET", "/static/brisk.png", 200, "image/png", mustEmbedded(t, "files/static/brisk.png")},
		{"css", "GET", "/static/style.css", 200, "text/css; charset=utf-8", mustEmbedded(t, "files/static/style.css")},
		{"txt", "GET", "/static/hello.txt", 200, "text/plain; charset=utf-8", mustEmbedded(t, "files/static/hello.txt")},
		{"echo_post", "POST", "/echo", 200, "application/json", nil}, // TestEchoNegotiation
		{"plaintext_query", "GET", "/plaintext?x=1", 200, "text/plain", []byte("Hello, World!")},
		{"static_missing", "GET", "/static/nope.png", 404, "text/plain; charset=utf-8", nil},
		{"static_dir", "GET", "/static/", 404, "text/plain; charset=utf-8", nil},
		{"index_not_static", "GET", "/static/../index.html", 307, "", nil},
		{"hello", "GET", "/hello/w%C3%B6rld", 200, "text/plain; charset=utf-8", []byte("Hello, wörld!")},
		{"hello_two_segments", "GET", "/hello/a/b", 404, "text/plain; charset=utf-8", nil},
		{"dir_redirect", "GET", "/static", 307, "", nil},
		{"unknown", "GET", "/nope", 404, "text/plain; charset=utf-8", nil},
		{"no_pprof", "GET", "/debug/pprof/", 404, "text/plain; charset=utf-8", nil}, // cmd/brisk's -admin
		{"no_pprof_cmdline", "GET", "/debug/pprof/cmdline", 404, "text/plain; charset=utf-8", nil},
		{"post_home", "POST", "/", 405, "text/plain; charset=utf-8", nil},
		{"delete_static", "DELETE", "/static/brisk.png", 405, "text/plain; charset=utf-8", nil},
	}
	addr := startSite(t, Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := rawGet(t, addr, tt.method, tt.target)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if ct := resp.Header.Get("Content-Type"); tt.ctype != "" && ct != tt.ctype {
				t.Errorf("Content-Type %q, want %q", ct, tt.ctype)
			}
			if resp.ContentLength != int64(len(body)) {
				t.Errorf("Content-Length %d, body %d bytes", resp.ContentLength, len(body))
			}
			if tt.body != nil && !bytes.Equal(body, tt.body) {
				t.Errorf("body %.80q, want %.80q", body, tt.body)
			}
			if tt.status == 405 && resp.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("Allow %q, want \"GET, HEAD\"", resp.Header.Get("Allow"))
			}
		})
	}
}

// TestHome: the home page's load-test commands name the address the
// client reached, for brisk load (run as the README runs brisk serve:
// go run ./cmd/brisk) and wrk, and it lists every route.
func TestHome(t *testing.T) {
	addr := startSite(t, Config{})
	_, body := rawGet(t, addr, "GET", "/")
	want := bytes.ReplaceAll(mustEmbedded(t, "files/index.html"), []byte(addrMark), []byte("http://"+addr))
	if !bytes.Equal(body, want) {
		t.Fatalf("home page:\n%s\nwant:\n%s", body, want)
	}
	for _, cmd := range []string{"<pre>go run ./cmd/brisk load -c 50 -d 5s http://" + addr + "/plaintext\n", "wrk -t1 -c50 -d5s http://" + addr + "/plaintext</pre>"} {
		if !bytes.Contains(body, []byte(cmd)) {
			t.Errorf("home page lacks %q", cmd)
		}
	}
	for _, route := range []string{`href="/plaintext"`, `href="/json"`, `href="/echo"`, `href="/hello/world">/hello/{name}`,
		`href="/healthz"`, `href="/readyz"`, `<code>/ws</code>`, `href="/static/hello.txt"`} {
		if !bytes.Contains(body, []byte(route)) {
			t.Errorf("home page does not list %s", route)
		}
	}
}

// TestEchoNegotiation: /echo answers a browser's Accept with an HTML page
// and anything else (no Accept, */*, application/json) with the JSON
// document; -echo mode is always JSON. Both carry Vary: Accept.
func TestEchoNegotiation(t *testing.T) {
	const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	tests := []struct {
		name, accept, ctype, prefix string
		echoMode                    bool
	}{
		{"browser", browser, "text/html; charset=utf-8", "<!DOCTYPE html>", false},
		{"no_accept", "", "application/json", `{"headers":[`, false},
		{"any", "*/*", "application/json", `{"headers":[`, false},
		{"json", "application/json", "application/json", `{"headers":[`, false},
		{"echo_mode_browser", browser, "application/json", `{"headers":[`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr := startSite(t, Config{Echo: tt.echoMode})
			req := "GET /echo?q=<b> HTTP/1.1\r\nHost: x\r\n"
			if tt.accept != "" {
				req += "Accept: " + tt.accept + "\r\n"
			}
			resp, body := rawRequest(t, addr, req+"\r\n")
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tt.ctype || !bytes.HasPrefix(body, []byte(tt.prefix)) {
				t.Fatalf("%d %q %.40q; want 200 %q %q...", resp.StatusCode, resp.Header.Get("Content-Type"), body, tt.ctype, tt.prefix)
			}
			if !tt.echoMode && resp.Header.Get("Vary") != "Accept" {
				t.Errorf("Vary %q, want Accept", resp.Header.Get("Vary"))
			}
			if tt.ctype == "text/html; charset=utf-8" && !bytes.Contains(body, []byte("<code>GET /echo?q=&lt;b&gt; HTTP/1.1</code>")) {
				t.Errorf("page does not show the escaped request line:\n%s", body)
			}
		})
	}
}

func TestHead(t *testing.T) {
	addr := startSite(t, Config{})
	png := mustEmbedded(t, "files/static/brisk.png")
	resp, body := rawGet(t, addr, "HEAD", "/static/brisk.png")
	if resp.StatusCode != 200 || len(body) != 0 {
		t.Fatalf("status %d with %d body bytes, want 200 and none", resp.StatusCode, len(body))
	}
	if resp.ContentLength != int64(len(png)) || resp.Header.Get("Content-Type") != "image/png" {
		t.Errorf("Content-Length %d, Content-Type %q; want %d, image/png", resp.ContentLength, resp.Header.Get("Content-Type"), len(png))
	}
}

// TestImage checks the logo is a real PNG, through a real HTTP client.
func TestImage(t *testing.T) {
	addr := startSite(t, Config{})
	resp, err := http.Get("http://" + addr + "/static/brisk.png")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	img, err := png.Decode(resp.Body)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 240 || b.Dy() != 120 {
		t.Errorf("image is %v, want 240x120", b)
	}
}

func TestEchoMode(t *testing.T) {
	addr := startSite(t, Config{Echo: true})
	for _, target := range []string{"/", "/plaintext", "/static/brisk.png", "/anything?x"} {
		resp, body := rawGet(t, addr, "DELETE", target)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" ||
			!strings.HasPrefix(string(body), `{"headers":[`) {
			t.Errorf("%s: status %d, %q, body %.60q; want an echo document", target, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
}

// writeTree creates files (name → content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRoot(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.txt": "SECRET"})
	base := t.TempDir()
	root := filepath.Join(base, "root")
	writeTree(t, base, map[string]string{"secret.txt": "SECRET", "root/a.txt": "alpha", "root/sub/b.json": `{"b":1}`, "root/.hidden": "SECRET"})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), 5000) // larger than the copy buffer
	writeTree(t, root, map[string]string{"big.bin": string(big)})

	addr := startSite(t, Config{Root: root})
	ok := []struct{ target, ctype, body string }{
		{"/static/a.txt", "text/plain; charset=utf-8", "alpha"},
		{"/static/sub/b.json", "application/json", `{"b":1}`},
		{"/static/big.bin", "application/octet-stream", string(big)},
	}
	for _, tt := range ok {
		resp, body := rawGet(t, addr, "GET", tt.target)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tt.ctype || string(body) != tt.body {
			t.Errorf("%s: %d %q %.40q; want 200 %q %.40q", tt.target, resp.StatusCode, resp.Header.Get("Content-Type"), body, tt.ctype, tt.body)
		}
	}
	for _, tt := range ok {
		if resp, _ := rawGet(t, addr, "GET", tt.target); resp.ContentLength != int64(len(tt.body)) {
			t.Errorf("GET %s: Content-Length %d, want %d", tt.target, resp.ContentLength, len(tt.body))
		}
		resp, body := rawGet(t, addr, "HEAD", tt.target)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Length") != strconv.Itoa(len(tt.body)) || len(body) != 0 {
			t.Errorf("HEAD %s: %d Content-Length %q, %d body bytes; want 200 %d and none", tt.target, resp.StatusCode, resp.Header.Get("Content-Length"), len(body), len(tt.body))
		}
	}
	if resp, _ := rawGet(t, addr, "GET", "/static/brisk.png"); resp.StatusCode != 404 {
		t.Errorf("embedded file served with -root: status %d", resp.StatusCode)
	}
	escapes := []string{
		"/static/../secret.txt",
		"/static/%2e%2e/secret.txt",
		"/static/..%2fsecret.txt",
		"/static/sub/../../secret.txt",
		"/static/sub%2f..%2f..%2fsecret.txt",
		"/static//secret.txt",
		"/static/.hidden",
		"/static/link.txt",
		"/static/linkdir/secret.txt",
		"/static/%00",
		"/static/..\\secret.txt",
		"/static/" + filepath.Join(outside, "secret.txt"),
	}
	for _, target := range escapes {
		resp, body := rawGet(t, addr, "GET", target)
		// 307: the router redirects an unclean path to its normalized form.
		if resp.StatusCode != 404 && resp.StatusCode != 400 && resp.StatusCode != 307 {
			t.Errorf("%s: status %d, want 404 (or 400 from the parser, 307 from the router)", target, resp.StatusCode)
		}
		if strings.Contains(string(body), "SECRET") {
			t.Errorf("%s: leaked a file outside the root", target)
		}
	}
}

// TestRootDirRedirect: a directory without its "/" is redirected, and a
// directory without index.html is not listed.
func TestRootDirRedirect(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"sub/b.txt": "b"})
	addr := startSite(t, Config{Root: root})
	if resp, _ := rawGet(t, addr, "GET", "/static/sub"); resp.StatusCode != 301 || resp.Header.Get("Location") != "./sub/" {
		t.Errorf("/static/sub: %d Location %q, want 301 ./sub/", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, _ := rawGet(t, addr, "GET", "/static/sub/"); resp.StatusCode != 404 {
		t.Errorf("/static/sub/: %d, want 404", resp.StatusCode)
	}
}

func TestNewRootErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	writeTree(t, dir, map[string]string{"f": "x"})
	for _, root := range []string{filepath.Join(dir, "missing"), file} {
		if s, err := New(Config{Root: root}); err == nil {
			s.Close()
			t.Errorf("New(Root: %q) succeeded, want an error", root)
		}
	}
}

// TestRootSlowReader: a client that reads steadily but takes longer than
// WriteTimeout for the whole file gets all of it, since WriteTimeout
// bounds each streamed piece, not the body. The reader takes 256 KiB
// every 20 ms: a 4 MiB sendfile piece in about 320 ms, a third of
// WriteTimeout, so a loaded machine does not cut it; the whole file in
// about 1.3 s. (Written in one write, the 16 MiB would be cut after 1 s,
// short of its end.)
func TestRootSlowReader(t *testing.T) {
	const size = 16 << 20
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	addr := testserver.Start(t, &brisk.Server{Handler: s.Handle, WriteTimeout: time.Second})
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.(*net.TCPConn).SetReadBuffer(256 << 10)
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	io.WriteString(nc, "GET /static/big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var n int64
	buf := make([]byte, 256<<10)
	for {
		m, err := io.ReadFull(resp.Body, buf)
		n += int64(m)
		if err != nil {
			if err != io.EOF && err != io.ErrUnexpectedEOF || n != size {
				t.Fatalf("read %d of %d bytes in %v: %v", n, size, time.Since(start), err)
			}
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if d := time.Since(start); d < time.Second {
		t.Logf("read in %v: faster than WriteTimeout, the test proves nothing on this machine", d)
	}
}
