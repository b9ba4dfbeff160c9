package brisk

import (
	"errors"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// closingServer answers the first request of each connection with a
// keep-alive 200 and then closes the connection, as a server whose idle
// timeout just expired. It counts connections.
func closingServer(t *testing.T) (string, *atomic.Int64) {
	var conns atomic.Int64
	url := brokenServer(t, func(nc net.Conn) {
		conns.Add(1)
		io.WriteString(nc, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
	})
	return url, &conns
}

func TestHostClientRetriesIdempotent(t *testing.T) {
	for _, method := range []string{"GET", "HEAD", "PUT", "DELETE", "OPTIONS"} {
		t.Run(method, func(t *testing.T) {
			url, conns := closingServer(t)
			var c Client
			defer c.CloseIdleConnections()
			var req Request
			var resp Response
			req.SetMethod(method)
			req.SetURI(url + "/")
			for i := range 3 {
				if err := c.DoTimeout(&req, &resp, 2*time.Second); err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				time.Sleep(20 * time.Millisecond) // let the server close
			}
			if n := conns.Load(); n != 3 {
				t.Fatalf("%d connections, want 3 (each reuse found closed, then retried)", n)
			}
		})
	}
}

// answerThenDropServer answers the first request of each connection
// with a keep-alive 200, then reads the next request and closes the
// connection without answering: the request was sent, so it may have
// been processed. It counts connections.
func answerThenDropServer(t *testing.T) (string, *atomic.Int64) {
	var conns atomic.Int64
	url := brokenServer(t, func(nc net.Conn) {
		conns.Add(1)
		io.WriteString(nc, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		nc.Read(make([]byte, 4096))
	})
	return url, &conns
}

// TestHostClientDoesNotRetryNonIdempotent: a non-idempotent request sent
// on a reused connection that the server then closes without a response
// is not sent again.
func TestHostClientDoesNotRetryNonIdempotent(t *testing.T) {
	for _, method := range []string{"POST", "PATCH"} {
		t.Run(method, func(t *testing.T) {
			url, conns := answerThenDropServer(t)
			var c Client
			defer c.CloseIdleConnections()
			var req Request
			var resp Response
			req.SetMethod(method)
			req.SetURI(url + "/")
			req.SetBodyString("x")
			if err := c.DoTimeout(&req, &resp, 2*time.Second); err != nil {
				t.Fatal(err)
			}
			err := c.DoTimeout(&req, &resp, 2*time.Second)
			if !errors.Is(err, ErrConnectionClosed) {
				t.Fatalf("%s on a reused connection closed after the request: %v, want ErrConnectionClosed", method, err)
			}
			if n := conns.Load(); n != 1 {
				t.Fatalf("%d connections, want 1 (no silent retry)", n)
			}
		})
	}
}

func TestHostClientRetriesDisabled(t *testing.T) {
	url, conns := answerThenDropServer(t)
	c := Client{ClientConfig: ClientConfig{MaxIdempotentRetries: -1}}
	defer c.CloseIdleConnections()
	var req Request
	var resp Response
	req.SetURI(url + "/")
	if err := c.DoTimeout(&req, &resp, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := c.DoTimeout(&req, &resp, 2*time.Second); !errors.Is(err, ErrConnectionClosed) {
		t.Fatalf("err = %v, want ErrConnectionClosed", err)
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections, want 1 (no retry)", n)
	}
}

// TestHostClientRetryBounded: a server that closes every connection
// without answering: a fresh connection is not retried, so a GET fails
// after one dial with ErrConnectionClosed.
func TestHostClientRetryBounded(t *testing.T) {
	var conns atomic.Int64
	url := brokenServer(t, func(net.Conn) { conns.Add(1) })
	var c Client
	var req Request
	var resp Response
	req.SetURI(url + "/")
	if err := c.DoTimeout(&req, &resp, 2*time.Second); !errors.Is(err, ErrConnectionClosed) || !errors.Is(err, io.EOF) {
		t.Fatalf("err = %v, want ErrConnectionClosed (io.EOF)", err)
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections, want 1", n)
	}
}

func TestHostClientDirect(t *testing.T) {
	cs := startClientServer(t, "tcp", routes)
	hc := &HostClient{Addr: strings.TrimPrefix(cs.url, "http://")}
	defer hc.CloseIdleConnections()
	var req Request
	var resp Response
	req.SetTarget("/echo?q=1")
	req.SetHost("example.org")
	if err := hc.Do(&req, &resp); err != nil {
		t.Fatal(err)
	}
	if string(resp.Header.Get("X-Host")) != "example.org" || string(resp.Header.Get("X-Query")) != "q=1" {
		t.Fatalf("host %q query %q", resp.Header.Get("X-Host"), resp.Header.Get("X-Query"))
	}
	req.Reset()
	req.SetTarget("/echo")
	if err := hc.Do(&req, &resp); err != nil {
		t.Fatal(err)
	}
	if got := string(resp.Header.Get("X-Host")); got != hc.Addr {
		t.Fatalf("default Host %q, want Addr %q", got, hc.Addr)
	}
	// Redirects to another host are not followed by a HostClient.
	hc2 := &HostClient{Addr: hc.Addr, ClientConfig: ClientConfig{MaxRedirects: 2}}
	req.SetURI(cs.url + "/redirect/0")
	if err := hc2.Do(&req, &resp); err != nil || string(resp.Body()) != "Hello, World!" {
		t.Fatalf("same-host redirect: %v %q", err, resp.Body())
	}
}

func TestWithPort(t *testing.T) {
	for _, tc := range []struct{ in, port, want string }{
		{"example.com", "80", "example.com:80"},
		{"example.com:8080", "80", "example.com:8080"},
		{"[::1]", "443", "[::1]:443"},
		{"[::1]:8443", "443", "[::1]:8443"},
		{"127.0.0.1", "443", "127.0.0.1:443"},
	} {
		if got := withPort(tc.in, tc.port); got != tc.want {
			t.Errorf("withPort(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
