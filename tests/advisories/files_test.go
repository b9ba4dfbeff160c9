package advisories

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/files"
	"github.com/brisk-http/brisk/router"
)

// fileTree makes dir/secret.txt (outside the served tree) and
// dir/public/{a.txt, %61.txt, sub/b.txt} and returns dir/public.
func fileTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	pub := filepath.Join(dir, "public")
	for name, body := range map[string]string{
		"secret.txt":            "SECRET",
		"public/a.txt":          "file a.txt",
		"public/%61.txt":        "file %61.txt",
		"public/sub/b.txt":      "file b.txt",
		"public/sub/secret.txt": "SECRET too deep",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return pub
}

// TestFileServerTraversal: golang/vulndb issue 4950 (fasthttp before
// 1.70.0 decoded the path twice, so "%252e%252e" became ".." past its
// guard), hertz CVE-2022-40082 (a traversal through its path
// normalisation, with "\" and encoded separators) and fasthttp
// CVE-2022-21221 (the same with "\" on Windows). files.Server, on
// os.DirFS (which does not confine names itself), must answer each
// target 400 or 404 and never serve a file outside the tree.
func TestFileServerTraversal(t *testing.T) {
	fsrv := &files.Server{FS: os.DirFS(fileTree(t)), Prefix: "/static/"}
	addr, _ := serve(t, &brisk.Server{Handler: fsrv.Handle})
	for _, target := range []string{
		"/static/%252e%252e/secret.txt",
		"/static/%252e%252e%252fsecret.txt",
		"/static/sub/%252e%252e/%252e%252e/secret.txt",
		"/static/%2e%2e/secret.txt",
		"/static/..%2fsecret.txt",
		"/static/..%2Fsecret.txt",
		"/static/..%5csecret.txt",
		"/static/..%5Csecret.txt",
		"/static/..\\secret.txt",
		"/static/sub/..\\..\\secret.txt",
		"/static/.%2e/secret.txt",
		"/static/%2e./secret.txt",
		"/static/%c0%ae%c0%ae/secret.txt",
		"/static/sub/../../secret.txt",
		"/static/../secret.txt",
		"/static//../secret.txt",
		"/static/sub/%00/../../secret.txt",
		"/static/sub%2f..%2f..%2fsecret.txt",
		"/static/./../secret.txt",
		"/static/sub/./../../secret.txt",
		"/../secret.txt",
		"/static/%2e%2e%5c%2e%2e%5csecret.txt",
	} {
		a := exchange(t, addr, "GET "+target+" HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
		if strings.Contains(a.body, "SECRET") || (a.status != 400 && a.status != 404) {
			t.Errorf("%s: status %d body %q, want 400 or 404", target, a.status, a.body)
		}
	}
}

// TestVulnDB4950_DecodedOnce: "%25" in a path is a "%" in the file name,
// decoded once: "/static/%2561.txt" serves the file "%61.txt", not
// "a.txt".
func TestVulnDB4950_DecodedOnce(t *testing.T) {
	fsrv := &files.Server{FS: os.DirFS(fileTree(t)), Prefix: "/static/"}
	addr, _ := serve(t, &brisk.Server{Handler: fsrv.Handle})
	a := exchange(t, addr, "GET /static/%2561.txt HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
	if a.status != 200 || a.body != "file %61.txt" {
		t.Errorf("status %d body %q, want 200 \"file %%61.txt\"", a.status, a.body)
	}
}

// TestCVE_2022_40083_OpenRedirect: echo's trailing-slash redirect sent
// "//evil.example/" as a Location, a scheme-relative URI that leaves the
// site; net/http's FileServer and ServeMux had the same shape, and gin's
// CVE-2023-26125 built its redirect from X-Forwarded-Prefix (sent with
// every request here, with X-Forwarded-Host). No
// redirect of brisk's router or file server may name another host: a
// Location must be a path (absolute, or relative as "./sub/"), and never
// start with "//" or "/\", which browsers read as a host.
func TestCVE_2022_40083_OpenRedirect(t *testing.T) {
	r := router.New()
	ok := func(c *brisk.Ctx) { c.Response.SetBodyString("ok") }
	r.Handle("GET /a/", ok)
	r.Handle("GET /{x}/", ok)
	r.Handle("GET /evil.example/", ok)
	fsrv := &files.Server{FS: os.DirFS(fileTree(t)), Prefix: "/static/"}
	r.Handle("GET /static/", fsrv.Handle)
	addr, _ := serve(t, &brisk.Server{Handler: r.Serve})
	redirects := 0
	for _, target := range []string{
		"//evil.example",
		"//evil.example/",
		"//evil.example/..",
		"//evil.example/../a",
		"/%2fevil.example",
		"/%2Fevil.example/",
		"/\\evil.example",
		"/%5cevil.example",
		"///evil.example",
		"//evil.example/%2e%2e",
		"/./evil.example",
		"//evil.example/./",
		"/static//evil.example/sub",
		"/static/sub",
		"//static/sub",
	} {
		nc := dial(t, addr)
		a := exchangeOn(t, nc, "GET "+target+" HTTP/1.1\r\nHost: a\r\nConnection: close\r\n"+
			"X-Forwarded-Prefix: //evil.example\r\nX-Forwarded-Host: evil.example\r\n\r\n")
		if a.status >= 300 && a.status < 400 {
			redirects++
			if loc := a.location; leavesSite(loc) {
				t.Errorf("%s: %d to %q, a Location that leaves the site", target, a.status, loc)
			}
		}
	}
	if redirects < 5 {
		t.Errorf("%d targets redirected, want at least 5: the cases no longer test redirects", redirects)
	}
}

// leavesSite reports whether a browser could follow loc to another host:
// it has a scheme or an authority, or starts with two slashes of either
// kind (WHATWG URL reads "\\" as "/" in http URLs).
func leavesSite(loc string) bool {
	u, err := url.Parse(loc)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return true
	}
	s := strings.ReplaceAll(loc, "\\", "/")
	return strings.HasPrefix(s, "//") || !(strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./"))
}

// TestCVE_2011_3192_RangeAmplification: Apache's "Range: bytes=0-,0-,..."
// (CVE-2011-3192) made a server send the file once per range; Go's
// ServeContent answers overlapping or too many ranges with the whole
// file. brisk's file server must send no more than about the file's size
// for 500 overlapping ranges, whatever it answers (200, 206 or 416).
func TestCVE_2011_3192_RangeAmplification(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), bytes.Repeat([]byte("0123456789abcdef"), 4<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	fsrv := &files.Server{FS: os.DirFS(dir)}
	addr, _ := serve(t, &brisk.Server{Handler: fsrv.Handle})
	for _, ranges := range []string{
		strings.Repeat("0-,", 499) + "0-",
		strings.Repeat("1-65535,", 499) + "1-65535",
		strings.Repeat("-65536,", 499) + "-65536",
	} {
		a := exchange(t, addr, "GET /big.bin HTTP/1.1\r\nHost: a\r\nConnection: close\r\nRange: bytes="+ranges+"\r\n\r\n")
		if a.status == 0 || len(a.body) > 2*64<<10 {
			t.Errorf("Range %.20s...: status %d, %d body bytes for a 64 KiB file", ranges, a.status, len(a.body))
		}
	}
}
