package brisk

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// echoBody answers with the request body and its trailer X-T.
func echoBody(c *Ctx) {
	b, err := c.Request.Body()
	if err != nil {
		c.Response.SetStatusCode(400)
		return
	}
	c.Response.Write(b)
	if v := c.Request.Trailer.Get("X-T"); v != nil {
		c.Response.Header.Set("X-Trailer", string(v))
	}
}

func post(body string) string {
	return fmt.Sprintf("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
}

func TestRequestBody(t *testing.T) {
	big := strings.Repeat("0123456789", 2000) // larger than the read buffer
	cases := []struct {
		name, req, want, trailer string
	}{
		{"length", post("hello"), "hello", ""},
		{"length_large", post(big), big, ""},
		{"chunked", "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", "hello world", ""},
		{"chunked_trailer", "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-T: v1\r\n\r\n", "abc", "v1"},
		{"chunked_large", "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + fmt.Sprintf("%x\r\n%s\r\n", len(big), big) + "0\r\n\r\n", big, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forTransports(t, func(t *testing.T, tr string) {
				ts := startServer(t, tr, &Server{Handler: echoBody})
				c := ts.connect()
				resp, body := c.roundTrip(tc.req)
				if resp.StatusCode != 200 || body != tc.want {
					t.Fatalf("got %d body %d bytes, want %d", resp.StatusCode, len(body), len(tc.want))
				}
				if got := resp.Header.Get("X-Trailer"); got != tc.trailer {
					t.Errorf("trailer %q, want %q", got, tc.trailer)
				}
				c.expectOpen()
			})
		})
	}
}

func TestBodyReaderStream(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
			n, err := io.Copy(io.Discard, c.Request.BodyReader())
			fmt.Fprintf(&c.Response, "%d %v", n, err)
		}})
		c := ts.connect()
		body := strings.Repeat("x", 50000)
		_, got := c.roundTrip(post(body))
		if got != "50000 <nil>" {
			t.Fatalf("got %q", got)
		}
		c.expectOpen()
	})
}

func TestBodyLimit(t *testing.T) {
	cases := []struct {
		name, req string
	}{
		{"content_length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n"},
		{"chunked", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n65\r\n" + strings.Repeat("y", 101) + "\r\n0\r\n\r\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			called := false
			ts := startServer(t, "tcp", &Server{MaxBodyBytes: 100, Handler: func(c *Ctx) {
				called = true
				c.Request.Body()
			}})
			c := ts.connect()
			resp, _ := c.roundTrip(tc.req)
			if resp.StatusCode != 413 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if tc.name == "content_length" && called {
				t.Errorf("handler called for a declared oversize body")
			}
			c.expectClosed()
		})
	}
}

func TestExpectContinue(t *testing.T) {
	head := "POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n"
	t.Run("sent_on_read", func(t *testing.T) {
		forTransports(t, func(t *testing.T, tr string) {
			ts := startServer(t, tr, &Server{Handler: echoBody})
			c := ts.connect()
			c.sendSync(head)
			line, err := c.br.ReadString('\n')
			if err != nil || line != "HTTP/1.1 100 Continue\r\n" {
				t.Fatalf("got %q %v", line, err)
			}
			if l, _ := c.br.ReadString('\n'); l != "\r\n" {
				t.Fatalf("100 not followed by empty line: %q", l)
			}
			c.send("hello")
			resp, body := c.read("POST")
			if resp.StatusCode != 200 || body != "hello" {
				t.Fatalf("got %d %q", resp.StatusCode, body)
			}
			c.expectOpen()
		})
	})
	t.Run("not_sent_without_read", func(t *testing.T) {
		forTransports(t, func(t *testing.T, tr string) {
			ts := startServer(t, tr, &Server{Handler: func(c *Ctx) { c.Response.SetStatusCode(417) }})
			c := ts.connect()
			c.sendSync(head)
			resp, _ := c.read("POST") // fails on a 100 response: ReadResponse returns it as final
			if resp.StatusCode != 417 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			c.expectClosed()
		})
	})
	t.Run("too_large", func(t *testing.T) {
		ts := startServer(t, "tcp", &Server{MaxBodyBytes: 4, Handler: echoBody})
		c := ts.connect()
		c.sendSync(head)
		resp, _ := c.read("POST")
		if resp.StatusCode != 413 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		c.expectClosed()
	})
	t.Run("http10_no_continue", func(t *testing.T) {
		ts := startServer(t, "tcp", &Server{Handler: echoBody})
		c := ts.connect()
		c.sendSync("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
		time.Sleep(20 * time.Millisecond)
		c.send("hello")
		resp, body := c.read("POST")
		if resp.StatusCode != 200 || body != "hello" {
			t.Fatalf("got %d %q", resp.StatusCode, body)
		}
	})
}

func TestDrainUnreadBody(t *testing.T) {
	ignore := func(c *Ctx) {}
	t.Run("small_kept_alive", func(t *testing.T) {
		forTransports(t, func(t *testing.T, tr string) {
			ts := startServer(t, tr, &Server{Handler: ignore})
			c := ts.connect()
			resp, _ := c.roundTrip(post(strings.Repeat("z", 10000)))
			if resp.StatusCode != 200 || resp.Close {
				t.Fatalf("status %d close %v", resp.StatusCode, resp.Close)
			}
			c.expectOpen()
		})
	})
	t.Run("chunked_kept_alive", func(t *testing.T) {
		ts := startServer(t, "tcp", &Server{Handler: ignore})
		c := ts.connect()
		resp, _ := c.roundTrip("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
		if resp.StatusCode != 200 || resp.Close {
			t.Fatalf("status %d close %v", resp.StatusCode, resp.Close)
		}
		c.expectOpen()
	})
	t.Run("large_closed", func(t *testing.T) {
		ts := startServer(t, "tcp", &Server{Handler: ignore})
		c := ts.connect()
		c.send(fmt.Sprintf("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", maxDrainBytes+100000))
		resp, _ := c.read("POST")
		if resp.StatusCode != 200 || !resp.Close {
			t.Fatalf("status %d close %v", resp.StatusCode, resp.Close)
		}
		c.expectClosed()
	})
}
