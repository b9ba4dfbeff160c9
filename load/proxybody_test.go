package load

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// TestProxyRequest: with Proxy, connections go to the proxy and the
// request has the absolute-form target and Basic Proxy-Authorization.
func TestProxyRequest(t *testing.T) {
	p, err := newPlan(Config{URL: "http://example.test:8080/p?q=1", Proxy: "http://alice:s3cret@127.0.0.1:3128", Requests: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := "GET http://example.test:8080/p?q=1 HTTP/1.1\r\nHost: example.test:8080\r\n" +
		"Proxy-Authorization: Basic YWxpY2U6czNjcmV0\r\n\r\n"
	if string(p.request) != want || p.addr != "127.0.0.1:3128" {
		t.Errorf("request %q to %s, want %q to 127.0.0.1:3128", p.request, p.addr, want)
	}
	for _, bad := range []string{"socks5://127.0.0.1:1080", "http://", "://x"} {
		if _, err := newPlan(Config{URL: "http://example.test/", Proxy: bad}); err != ErrProxy {
			t.Errorf("Proxy %q: err %v, want ErrProxy", bad, err)
		}
	}
}

// TestDialAddr: connections go to the host:port of the URL, or of the
// proxy, port 80 when the URL names none.
func TestDialAddr(t *testing.T) {
	for _, tt := range []struct{ url, proxy, want string }{
		{"http://example.test/", "", "example.test:80"},
		{"http://example.test:8080/", "", "example.test:8080"},
		{"http://[::1]/", "", "[::1]:80"},
		{"http://example.test:8080/", "http://proxy.test", "proxy.test:80"},
		{"http://example.test/", "http://[::1]:3128", "[::1]:3128"},
	} {
		p, err := newPlan(Config{URL: tt.url, Proxy: tt.proxy, Requests: 1})
		if err != nil {
			t.Fatalf("URL %s, proxy %q: %v", tt.url, tt.proxy, err)
		}
		if p.addr != tt.want {
			t.Errorf("URL %s, proxy %q: address %q, want %q", tt.url, tt.proxy, p.addr, tt.want)
		}
	}
}

// TestBodyFile streams a 1 MiB file as the body of 20 requests over 2
// connections; the server reads each whole body with net/http's parser.
func TestBodyFile(t *testing.T) {
	const size = 1 << 20
	path := filepath.Join(t.TempDir(), "body")
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(i)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var bodies atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					if n, _ := io.Copy(io.Discard, req.Body); n == size {
						bodies.Add(1)
					}
					io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
				}
			}()
		}
	}()
	res := run(t, Config{URL: "http://" + ln.Addr().String() + "/up", Method: "PUT", BodyFile: path,
		Connections: 2, Requests: 20, Timeout: 10 * time.Second})
	noErrors(t, res)
	if res.Status[2] != 20 || bodies.Load() != 20 {
		t.Errorf("%d 2xx, %d whole bodies received; want 20, 20", res.Status[2], bodies.Load())
	}
	if _, err := newPlan(Config{URL: "http://x/", BodyFile: filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("missing body file: no error")
	}
}
