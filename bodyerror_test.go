package brisk

import (
	"net"
	"testing"
	"time"
)

// TestIncompleteBody: a body the client cuts short (half-close) or stops
// sending (read timeout) is answered 400 or 408, never the handler's 200,
// and the connection is closed.
func TestIncompleteBody(t *testing.T) {
	cases := []struct {
		name, req string
		halfClose bool
		want      int
	}{
		{"content_length_eof", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc", true, 400},
		{"chunked_eof", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabc", true, 400},
		{"chunked_eof_before_last_chunk", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", true, 400},
		{"content_length_timeout", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc", false, 408},
		{"chunked_timeout", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabc", false, 408},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, "tcp", &Server{ReadTimeout: 200 * time.Millisecond, Handler: func(c *Ctx) {
				if _, err := c.Request.Body(); err != nil {
					return
				}
				c.Response.SetBodyString("complete")
			}})
			c := ts.connect()
			c.sendSync(tc.req)
			if tc.halfClose {
				c.nc.(*net.TCPConn).CloseWrite()
			}
			resp, body := c.read("POST")
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d %q, want %d", resp.StatusCode, body, tc.want)
			}
			c.expectClosed()
		})
	}
}
