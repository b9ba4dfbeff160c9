package brisk

import (
	"io"
	"strings"
	"testing"
	"time"
)

// TestConnect checks the answer to CONNECT (RFC 9110 §9.3.6): a 2xx
// response carries no Content-Length or Transfer-Encoding, its body is
// delimited by the close, and a request pipelined after it is never
// answered (brisk has no tunnel); a non-2xx response is framed normally
// and keeps the connection.
func TestConnect(t *testing.T) {
	const connect = "CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n"
	const pipelined = "GET /after HTTP/1.1\r\nHost: a\r\n\r\n"
	tests := []struct {
		name    string
		handler Handler
		status  string // status line
		body    string
	}{
		{"buffered_200", func(c *Ctx) { c.Response.SetBodyString("tunnel refused") }, "HTTP/1.1 200 OK", "tunnel refused"},
		{"buffered_200_handler_content_length", func(c *Ctx) {
			c.Response.Header.Set("Content-Length", "5")
			c.Response.Header.Set("Transfer-Encoding", "chunked")
			c.Response.SetBodyString("hello")
		}, "HTTP/1.1 200 OK", "hello"},
		{"streamed_200", func(c *Ctx) {
			w := c.BodyWriter()
			w.WriteString("part1,")
			w.Flush()
			w.WriteString("part2")
		}, "HTTP/1.1 200 OK", "part1,part2"},
		{"streamed_200_content_length", func(c *Ctx) {
			c.Response.Header.Set("Content-Length", "3")
			c.BodyWriter().WriteString("abc")
		}, "HTTP/1.1 200 OK", "abc"},
		{"empty_200", func(c *Ctx) {}, "HTTP/1.1 200 OK", ""},
		{"no_content_204", func(c *Ctx) { c.Response.SetStatusCode(204) }, "HTTP/1.1 204 No Content", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forTransports(t, func(t *testing.T, tr string) {
				ts := startServer(t, tr, &Server{Handler: tt.handler})
				c := ts.connect()
				c.send(connect + pipelined)
				c.nc.SetReadDeadline(time.Now().Add(3 * time.Second))
				raw, err := io.ReadAll(c.br)
				if err != nil {
					t.Fatalf("reading until EOF: %v (got %q)", err, raw)
				}
				head, body, ok := strings.Cut(string(raw), "\r\n\r\n")
				if !ok {
					t.Fatalf("no complete head in %q", raw)
				}
				line, fields, _ := strings.Cut(head, "\r\n")
				if line != tt.status {
					t.Errorf("status line %q, want %q", line, tt.status)
				}
				lower := strings.ToLower(fields)
				for _, f := range []string{"content-length:", "transfer-encoding:"} {
					if strings.Contains(lower, f) {
						t.Errorf("2xx response to CONNECT carries %s\n%s", f, head)
					}
				}
				if body != tt.body {
					t.Errorf("body %q, want %q (the pipelined GET must not be answered)", body, tt.body)
				}
			})
		})
	}
}

// TestConnectNon2xx checks that a non-2xx answer to CONNECT is framed
// like any response and keeps the connection.
func TestConnectNon2xx(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
			if string(c.Request.Method()) == "CONNECT" {
				c.Response.SetStatusCode(405)
			}
			c.Response.SetBodyString("no")
		}})
		c := ts.connect()
		resp, body := c.roundTrip("CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n")
		if resp.StatusCode != 405 || body != "no" || resp.ContentLength != 2 || resp.Close {
			t.Fatalf("got %d %q, Content-Length %d, close %v; want 405 \"no\", 2, keep-alive",
				resp.StatusCode, body, resp.ContentLength, resp.Close)
		}
		resp, body = c.roundTrip(get("/after"))
		if resp.StatusCode != 200 || body != "no" {
			t.Fatalf("request after the 405: %d %q", resp.StatusCode, body)
		}
	})
}
