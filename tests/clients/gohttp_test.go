package clients

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
)

// goClient returns a net/http client with one kept-alive connection per
// host, closed when the test ends.
func goClient(t *testing.T) *http.Client {
	tr := &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1, DisableCompression: true}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// getBody sends a GET and returns the status and whole body.
func getBody(t *testing.T, c *http.Client, url string) (int, []byte) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: reading body: %v", url, err)
	}
	return resp.StatusCode, body
}

// TestGoKeepAlive: 50 requests of mixed kinds from net/http share one
// connection.
func TestGoKeepAlive(t *testing.T) {
	s := startServer(t)
	c := goClient(t)
	for i := range 50 {
		path := fmt.Sprintf("/k/%d?i=%d", i, i)
		if i%5 == 4 {
			path = "/stream?n=5000"
		}
		code, body := getBody(t, c, s.url+path)
		if code != 200 {
			t.Fatalf("request %d: status %d", i, code)
		}
		if i%5 == 4 {
			if !bytes.Equal(body, pattern(5000)) {
				t.Fatalf("request %d: streamed body differs", i)
			}
		} else if e := decodeEcho(t, body); string(e.URI) != path {
			t.Fatalf("request %d: echoed uri %q, want %q", i, e.URI, path)
		}
	}
	if n := s.conns(); n != 1 {
		t.Errorf("server accepted %d connections for 50 keep-alive requests, want 1", n)
	}
}

// TestGoChunkedUpload: a body of unknown length goes out chunked (in small
// writes) and arrives whole.
func TestGoChunkedUpload(t *testing.T) {
	s := startServer(t)
	c := goClient(t)
	data := pattern(1 << 20)
	// Small reads at first make the transport send several short chunks.
	body := io.MultiReader(iotest.HalfReader(bytes.NewReader(data[:1000])), bytes.NewReader(data[1000:]))
	req, err := http.NewRequest("PUT", s.url+"/up", body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = -1
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d, read error %v", resp.StatusCode, err)
	}
	e := decodeEcho(t, out)
	if te, _ := e.field("Transfer-Encoding"); te != "chunked" {
		t.Errorf("echoed Transfer-Encoding %q, want chunked", te)
	}
	if !bytes.Equal(e.Body, data) {
		t.Errorf("echoed body of %d bytes differs from the %d uploaded", len(e.Body), len(data))
	}
}

// TestGoLargeDownload: 16 MiB with Content-Length and 16 MiB chunked, then
// a small request on the same connection.
func TestGoLargeDownload(t *testing.T) {
	s := startServer(t)
	c := goClient(t)
	const n = 16 << 20
	want := sha256.Sum256(pattern(n))
	for _, path := range []string{"/big", "/stream"} {
		resp, err := c.Get(fmt.Sprintf("%s%s?n=%d", s.url, path, n))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		got, err := io.Copy(h, resp.Body)
		resp.Body.Close()
		if err != nil || got != n || !bytes.Equal(h.Sum(nil), want[:]) {
			t.Errorf("%s: %d bytes (err %v), digest match %v; want %d bytes", path, got, err, bytes.Equal(h.Sum(nil), want[:]), n)
		}
		wantTE := map[string]bool{"/big": false, "/stream": true}[path]
		if chunked := len(resp.TransferEncoding) > 0; chunked != wantTE || (!wantTE && resp.ContentLength != n) {
			t.Errorf("%s: Transfer-Encoding %v, Content-Length %d", path, resp.TransferEncoding, resp.ContentLength)
		}
	}
	if code, body := getBody(t, c, s.url+"/hello"); code != 200 || !strings.EqualFold(string(body), "hello, world!") {
		t.Errorf("after downloads: %d %q", code, body)
	}
	if n := s.conns(); n != 1 {
		t.Errorf("server accepted %d connections, want 1", n)
	}
}
