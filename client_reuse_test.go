package brisk

import (
	"bufio"
	"context"
	"io"
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// scriptServer is a raw TCP server that answers the first request it
// receives with first (written in one write) and every later request, on
// any connection, with a clean "200 ok". It counts the connections
// accepted.
func scriptServer(t *testing.T, first string) (string, *atomic.Int64) {
	t.Helper()
	var served atomic.Bool
	return rawServer(t, func(_ int64, nc net.Conn) {
		br := bufio.NewReader(nc)
		for readHead(br) {
			answer := "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
			if !served.Swap(true) {
				answer = first
			}
			if _, err := io.WriteString(nc, answer); err != nil {
				return
			}
		}
	})
}

// readHead reads one request head (the requests here have no body).
func readHead(br *bufio.Reader) bool {
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return false
		}
		if line == "\r\n" {
			return true
		}
	}
}

// TestClientNoReuseAfterExtraBytes: a connection is reused only when the
// response ended exactly at the end of the bytes received; bytes left
// after a complete response (a 204 or 304 carrying a body, garbage after
// a body) make the connection's state unknown, so it is closed and the
// next request dials.
func TestClientNoReuseAfterExtraBytes(t *testing.T) {
	cases := []struct {
		name      string
		method    string
		first     string
		wantConns int64
	}{
		{"clean_response_reused", "GET", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", 1},
		{"204_with_body", "GET", "HTTP/1.1 204 No Content\r\n\r\nJUNK", 2},
		{"304_with_body", "GET", "HTTP/1.1 304 Not Modified\r\nContent-Length: 4\r\n\r\nJUNK", 2},
		{"head_response_with_body", "HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nJUNK", 2},
		{"garbage_after_length_body", "GET", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokJUNK", 2},
		{"garbage_after_chunked_body", "GET", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\nJUNK", 2},
		{"second_response_after_first", "GET", "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nbad", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, stream := range []bool{false, true} {
				url, conns := scriptServer(t, tc.first)
				var c Client
				var req Request
				var resp Response
				req.SetMethod(tc.method)
				req.SetURI(url + "/")
				if err := doMaybeStream(&c, &req, &resp, stream); err != nil {
					t.Fatalf("stream=%v: first request: %v", stream, err)
				}
				req.SetMethod("GET")
				if err := doMaybeStream(&c, &req, &resp, stream); err != nil {
					t.Fatalf("stream=%v: second request: %v", stream, err)
				}
				if resp.StatusCode() != 200 || string(resp.Body()) != "ok" {
					t.Fatalf("stream=%v: second response %d %q, want 200 \"ok\"", stream, resp.StatusCode(), resp.Body())
				}
				if n := conns.Load(); n != tc.wantConns {
					t.Fatalf("stream=%v: %d connections accepted, want %d", stream, n, tc.wantConns)
				}
				c.CloseIdleConnections()
			}
		})
	}
}

// doMaybeStream runs a Do, or a DoStream whose body is read to its end
// into resp.
func doMaybeStream(c *Client, req *Request, resp *Response, stream bool) error {
	if !stream {
		return c.DoTimeout(req, resp, 2*time.Second)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s, err := c.DoStream(ctx, req, resp)
	if err != nil {
		return err
	}
	defer s.Close()
	b, err := io.ReadAll(s)
	resp.SetBody(b)
	return err
}
