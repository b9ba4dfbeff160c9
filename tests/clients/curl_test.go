package clients

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// curl runs curl with -sS and a time limit, returning stdout and stderr.
func curl(t *testing.T, args ...string) (stdout, stderr []byte) {
	t.Helper()
	bin := need(t, "curl")
	return runCmd(t, 20*time.Second, bin, append([]string{"-sS", "--max-time", "15"}, args...)...)
}

// writeFile writes data to a file in the test's temporary directory.
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// readFile reads a file written by a client.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCurlVersions(t *testing.T) {
	need(t, "curl")
	s := startServer(t)
	tests := []struct {
		name, flag, version string
	}{
		{"http1.0", "--http1.0", "HTTP/1.0"},
		{"http1.1", "--http1.1", "HTTP/1.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := filepath.Join(t.TempDir(), "body")
			out, _ := curl(t, tt.flag, "-o", body, "-w", "%{http_code}", s.url+"/a/b?x=1")
			if string(out) != "200" {
				t.Fatalf("status %q, want 200", out)
			}
			e := decodeEcho(t, readFile(t, body))
			if string(e.Method) != "GET" || string(e.URI) != "/a/b?x=1" || string(e.Version) != tt.version {
				t.Errorf("echo %s %s %s, want GET /a/b?x=1 %s", e.Method, e.URI, e.Version, tt.version)
			}
			if host, _ := e.field("Host"); host != s.addr {
				t.Errorf("echoed Host %q, want %q", host, s.addr)
			}
		})
	}
}

// TestCurlReuse: curl fetching several URLs of one host sends them all on
// one kept-alive connection.
func TestCurlReuse(t *testing.T) {
	need(t, "curl")
	s := startServer(t)
	args := []string{"-v", "--http1.1", "-w", "%{http_code}\n"}
	for _, p := range []string{"/1", "/hello", "/big?n=100000", "/stream?n=70000", "/5"} {
		args = append(args, "-o", "/dev/null", s.url+p)
	}
	out, errOut := curl(t, args...)
	if got := string(out); got != strings.Repeat("200\n", 5) {
		t.Errorf("statuses %q, want five 200s", got)
	}
	if n := bytes.Count(errOut, []byte("Re-using existing connection")); n != 4 {
		t.Errorf("curl re-used the connection %d times, want 4\n%s", n, errOut)
	}
	if n := s.conns(); n != 1 {
		t.Errorf("server accepted %d connections, want 1", n)
	}
}

// TestCurlChunkedUpload: a chunked request body arrives whole, framing
// removed.
func TestCurlChunkedUpload(t *testing.T) {
	need(t, "curl")
	s := startServer(t)
	data := pattern(200 << 10)
	file := writeFile(t, "upload", data)
	body := filepath.Join(t.TempDir(), "body")
	out, _ := curl(t, "-H", "Transfer-Encoding: chunked", "--data-binary", "@"+file, "-o", body, "-w", "%{http_code}", s.url+"/up")
	if string(out) != "200" {
		t.Fatalf("status %q, want 200", out)
	}
	e := decodeEcho(t, readFile(t, body))
	if !bytes.Equal(e.Body, data) {
		t.Errorf("echoed body of %d bytes differs from the %d uploaded", len(e.Body), len(data))
	}
	if te, _ := e.field("Transfer-Encoding"); te != "chunked" {
		t.Errorf("echoed Transfer-Encoding %q, want chunked", te)
	}
	if _, ok := e.field("Content-Length"); ok || string(e.Method) != "POST" {
		t.Errorf("method %s, Content-Length present %v; want POST without it", e.Method, ok)
	}
}

// TestCurlExpectContinue: the server answers 100 Continue before curl
// sends the body (curl would send it anyway after --expect100-timeout,
// which is set long so that a missing 100 shows as a slow test and in the
// verbose log).
func TestCurlExpectContinue(t *testing.T) {
	need(t, "curl")
	s := startServer(t)
	data := pattern(300 << 10)
	file := writeFile(t, "upload", data)
	body := filepath.Join(t.TempDir(), "body")
	out, errOut := curl(t, "-v", "--expect100-timeout", "10", "-H", "Expect: 100-continue",
		"--data-binary", "@"+file, "-o", body, "-w", "%{http_code}", s.url+"/up")
	if string(out) != "200" {
		t.Fatalf("status %q, want 200", out)
	}
	if !bytes.Contains(errOut, []byte("< HTTP/1.1 100 Continue")) {
		t.Errorf("no 100 Continue in curl's log:\n%s", errOut)
	}
	if e := decodeEcho(t, readFile(t, body)); !bytes.Equal(e.Body, data) {
		t.Errorf("echoed body of %d bytes differs from the %d uploaded", len(e.Body), len(data))
	}
}

// TestCurlHead: HEAD gets the GET's header section (Content-Length 13)
// and no body, and the connection stays usable for the next request.
func TestCurlHead(t *testing.T) {
	need(t, "curl")
	s := startServer(t)
	out, errOut := curl(t, "-v", "-I", s.url+"/hello", s.url+"/hello")
	heads := strings.Split(strings.TrimSpace(strings.ReplaceAll(string(out), "\r\n", "\n")), "\n\n")
	if len(heads) != 2 {
		t.Fatalf("%d header sections, want 2:\n%s", len(heads), out)
	}
	for i, h := range heads {
		if !strings.HasPrefix(h, "HTTP/1.1 200") {
			t.Errorf("HEAD %d: status line %q, want HTTP/1.1 200", i+1, strings.SplitN(h, "\n", 2)[0])
		}
		if !strings.Contains(strings.ToLower(h), "\ncontent-length: 13") {
			t.Errorf("HEAD %d: no Content-Length: 13 in\n%s", i+1, h)
		}
	}
	if !bytes.Contains(errOut, []byte("Re-using existing connection")) || s.conns() != 1 {
		t.Errorf("second HEAD not on the same connection (%d accepted)\n%s", s.conns(), errOut)
	}
}
