package brisk

import (
	"strings"
	"testing"
)

func TestKeepAlive(t *testing.T) {
	cases := []struct {
		name      string
		req       string
		handler   Handler
		wantConn  string // Connection field of the response
		wantClose bool
	}{
		{"http11_default", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", echoPath, "", false},
		{"http11_close", "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", echoPath, "close", true},
		{"http10_default", "GET / HTTP/1.0\r\n\r\n", echoPath, "close", true},
		{"http10_keepalive", "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", echoPath, "keep-alive", false},
		{"handler_close", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", func(c *Ctx) {
			c.Response.Header.Set("Connection", "close")
		}, "close", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forTransports(t, func(t *testing.T, tr string) {
				ts := startServer(t, tr, &Server{Handler: tc.handler})
				c := ts.connect()
				resp, _ := c.roundTrip(tc.req)
				if resp.StatusCode != 200 {
					t.Fatalf("status %d", resp.StatusCode)
				}
				// net/http moves "Connection: close" into resp.Close.
				if got := resp.Header.Get("Connection"); resp.Close != tc.wantClose ||
					(tc.wantConn == "keep-alive") != (got == "keep-alive") {
					t.Errorf("Connection %q close=%v, want %q", got, resp.Close, tc.wantConn)
				}
				if tc.wantClose {
					c.expectClosed()
				} else {
					c.expectOpen()
				}
			})
		})
	}
}

func TestPipeliningOrder(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: echoPath})
		c := ts.connect()
		var reqs strings.Builder
		paths := []string{"/a", "/bb", "/ccc", "/dddd", "/e"}
		for _, p := range paths {
			reqs.WriteString(get(p))
		}
		c.send(reqs.String())
		for _, p := range paths {
			resp, body := c.read("GET")
			if resp.StatusCode != 200 || body != p {
				t.Fatalf("got %d %q, want %q", resp.StatusCode, body, p)
			}
		}
		c.expectOpen()
	})
}

func TestMaxRequestsPerConn(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: echoPath, MaxRequestsPerConn: 2})
		c := ts.connect()
		resp, _ := c.roundTrip(get("/1"))
		if resp.Close {
			t.Fatalf("first response closes")
		}
		resp, _ = c.roundTrip(get("/2"))
		if !resp.Close {
			t.Fatalf("second response: Connection %q", resp.Header.Get("Connection"))
		}
		c.expectClosed()
	})
}
