package brisk

import (
	"io"
	"strconv"
	"testing"
)

func TestHead(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
			c.Response.SetBodyString("Hello, World!")
		}})
		c := ts.connect()
		resp, body := c.roundTrip("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
		if resp.StatusCode != 200 || body != "" || resp.ContentLength != 13 {
			t.Fatalf("HEAD: %d %q Content-Length %d", resp.StatusCode, body, resp.ContentLength)
		}
		// The next response must start right after the head: no body bytes.
		resp, body = c.roundTrip(get("/"))
		if body != "Hello, World!" {
			t.Fatalf("GET after HEAD: %d %q", resp.StatusCode, body)
		}
	})
}

func TestHeadExplicitContentLength(t *testing.T) {
	ts := startServer(t, "inmemory", &Server{Handler: func(c *Ctx) {
		c.Response.Header.Set("Content-Length", "1234")
	}})
	c := ts.connect()
	resp, _ := c.roundTrip("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
	if resp.ContentLength != 1234 {
		t.Fatalf("Content-Length %d", resp.ContentLength)
	}
	c.expectOpen()
}

func TestNoBodyStatus(t *testing.T) {
	for _, code := range []int{204, 304} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
				c.Response.SetStatusCode(code)
				c.Response.SetBodyString("must not be sent")
			}})
			c := ts.connect()
			resp, body := c.roundTrip(get("/"))
			if resp.StatusCode != code || body != "" {
				t.Fatalf("got %d %q", resp.StatusCode, body)
			}
			if _, ok := resp.Header["Content-Length"]; ok {
				t.Errorf("Content-Length sent with %d", code)
			}
			c.expectOpen()
		})
	}
}

func TestReasonAndHeaders(t *testing.T) {
	ts := startServer(t, "inmemory", &Server{Handler: func(c *Ctx) {
		c.Response.SetStatusCode(418)
		c.Response.SetReason("Short And Stout")
		c.Response.Header.Add("X-A", "1")
		c.Response.Header.Add("x-a", "2")
		c.Response.Header.Set("Date", "Thu, 01 Jan 1970 00:00:00 GMT")
		c.Response.Header.Set("Transfer-Encoding", "gzip") // ignored
	}})
	c := ts.connect()
	resp, _ := c.roundTrip(get("/"))
	if resp.StatusCode != 418 || resp.Status != "418 Short And Stout" {
		t.Fatalf("status %q", resp.Status)
	}
	if got := resp.Header.Values("X-A"); len(got) != 2 || got[0] != "1" || got[1] != "2" {
		t.Errorf("X-A %q", got)
	}
	if got := resp.Header.Values("Date"); len(got) != 1 || got[0] != "Thu, 01 Jan 1970 00:00:00 GMT" {
		t.Errorf("Date %q", got)
	}
	if resp.TransferEncoding != nil || resp.ContentLength != 0 {
		t.Errorf("framing: TE %v CL %d", resp.TransferEncoding, resp.ContentLength)
	}
}

func TestInvalidResponseField(t *testing.T) {
	cases := map[string]func(c *Ctx){
		"crlf_value":   func(c *Ctx) { c.Response.Header.Set("X-Split", "a\r\nSet-Cookie: evil=1") },
		"bad_name":     func(c *Ctx) { c.Response.Header.Set("Bad Name", "v") },
		"crlf_reason":  func(c *Ctx) { c.Response.SetReason("OK\r\nX: y") },
		"status_1xx":   func(c *Ctx) { c.Response.SetStatusCode(101) },
		"status_large": func(c *Ctx) { c.Response.SetStatusCode(1000) },
		"status_600":   func(c *Ctx) { c.Response.SetStatusCode(600) },
	}
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			ts := startServer(t, "inmemory", &Server{Handler: h})
			c := ts.connect()
			resp, body := c.roundTrip(get("/"))
			if resp.StatusCode != 500 || resp.Header.Get("X-Split") != "" || resp.Header.Get("Set-Cookie") != "" {
				t.Fatalf("got %d %q %v", resp.StatusCode, body, resp.Header)
			}
			c.expectOpen()
		})
	}
}

func TestStreaming(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
			c.Response.Trailer.Set("X-Sum", "42")
			c.Response.WriteString("head-")
			w := c.BodyWriter()
			w.WriteString("part1-")
			if err := w.Flush(); err != nil {
				panic(err)
			}
			c.Response.WriteString("part2") // goes to the stream once started
		}})
		c := ts.connect()
		resp, body := c.roundTrip(get("/"))
		if body != "head-part1-part2" {
			t.Fatalf("body %q", body)
		}
		if len(resp.TransferEncoding) != 1 || resp.TransferEncoding[0] != "chunked" {
			t.Errorf("TE %v", resp.TransferEncoding)
		}
		if resp.Trailer.Get("X-Sum") != "42" {
			t.Errorf("trailer %v", resp.Trailer)
		}
		c.expectOpen()
	})
}

// TestStreamingThenBadRequest: the error response to a malformed request
// that follows a streamed response on the same connection is a plain 400,
// not the end of the earlier stream (the body writer's state belongs to
// its exchange).
func TestStreamingThenBadRequest(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
			c.BodyWriter().WriteString("hello")
		}})
		c := ts.connect()
		if _, body := c.roundTrip(get("/")); body != "hello" {
			t.Fatalf("streamed body %q", body)
		}
		resp, _ := c.roundTrip("GET / HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n")
		if resp.StatusCode != 400 {
			t.Fatalf("status %d after a streamed response, want 400", resp.StatusCode)
		}
		c.expectClosed()
	})
}

func TestStreamingContentLength(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
		c.Response.Header.Set("Content-Length", "10")
		w := c.BodyWriter()
		w.WriteString("01234")
		w.Flush()
		w.WriteString("56789")
	}})
	c := ts.connect()
	resp, body := c.roundTrip(get("/"))
	if body != "0123456789" || resp.ContentLength != 10 || resp.TransferEncoding != nil {
		t.Fatalf("got %q CL %d TE %v", body, resp.ContentLength, resp.TransferEncoding)
	}
	c.expectOpen()
}

func TestStreamingHTTP10(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
		w := c.BodyWriter()
		w.WriteString("until close")
	}})
	c := ts.connect()
	c.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
	resp, body := c.read("GET")
	if body != "until close" || !resp.Close {
		t.Fatalf("got %q close=%v", body, resp.Close)
	}
	c.expectClosed()
}

func TestLargeBody(t *testing.T) {
	big := make([]byte, 100<<10)
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: func(c *Ctx) { c.Response.SetBody(big) }})
		c := ts.connect()
		_, body := c.roundTrip(get("/"))
		if body != string(big) {
			t.Fatalf("body mismatch: %d bytes", len(body))
		}
		c.expectOpen()
	})
	_ = io.EOF
}
