package brisk

import "testing"

// TestHeadErrorHasNoBody: an error response to a HEAD request carries the
// Content-Length its body would have and no body (RFC 9110 §9.3.2), both
// when the head is rejected before it is parsed and when it is rejected
// after (a path that does not decode, a declared body over the limit).
func TestHeadErrorHasNoBody(t *testing.T) {
	cases := []struct {
		name, req, want string
	}{
		{"bad_field", "HEAD / HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n",
			"HTTP/1.1 400 Bad Request\r\nDate: D\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 12\r\nConnection: close\r\n\r\n"},
		{"bad_path", "HEAD /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
			"HTTP/1.1 400 Bad Request\r\nDate: D\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 12\r\nConnection: close\r\n\r\n"},
		{"body_too_large", "HEAD / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n",
			"HTTP/1.1 413 Content Too Large\r\nDate: D\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 18\r\nConnection: close\r\n\r\n"},
		{"get_bad_field_keeps_body", "GET / HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n",
			"HTTP/1.1 400 Bad Request\r\nDate: D\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 12\r\nConnection: close\r\n\r\nBad Request\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, "tcp", &Server{Handler: echoPath, MaxBodyBytes: 10})
			c := ts.connect()
			c.sendSync(tc.req)
			if got := c.readUntilClose(); got != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestHeadStreamed: a streamed response to HEAD carries no Content-Length
// unless the handler set one, no body, and keeps the connection.
func TestHeadStreamed(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
			if string(c.Request.Path()) == "/declared" {
				c.Response.Header.Set("Content-Length", "5")
			}
			c.Response.WriteString("ab")
			w := c.BodyWriter()
			w.WriteString("cde")
			w.Flush()
		}})
		c := ts.connect()
		c.sendSync("HEAD /streamed HTTP/1.1\r\nHost: x\r\n\r\nHEAD /declared HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		want := "HTTP/1.1 200 OK\r\nDate: D\r\n\r\n" +
			"HTTP/1.1 200 OK\r\nDate: D\r\nContent-Length: 5\r\nConnection: close\r\n\r\n"
		if got := c.readUntilClose(); got != want {
			t.Fatalf("got\n%q\nwant\n%q", got, want)
		}
	})
}

// TestHeadLengthUnknown: after SetLengthUnknown a response to HEAD has no
// Content-Length, whether buffered (with a body or a Content-Length field)
// or streamed with a declared one; a GET is framed as usual, the next
// exchange on the connection is unaffected (Reset undoes it), and an
// invalid response replaced by a 500 gets the 500's length.
func TestHeadLengthUnknown(t *testing.T) {
	ts := startServer(t, "inmemory", &Server{Handler: func(c *Ctx) {
		path := string(c.Request.Path())
		if path != "/plain" {
			c.Response.SetLengthUnknown()
		}
		switch path {
		case "/declared":
			c.Response.Header.Set("Content-Length", "1234")
		case "/streamed":
			c.Response.Header.Set("Content-Length", "5")
			c.BodyWriter().WriteString("Hello")
		case "/invalid":
			c.Response.Header.Set("Bad Name", "v")
		default:
			c.Response.SetBodyString("Hello")
		}
	}})
	c := ts.connect()
	c.sendSync("HEAD /buffered HTTP/1.1\r\nHost: x\r\n\r\n" +
		"HEAD /declared HTTP/1.1\r\nHost: x\r\n\r\n" +
		"HEAD /streamed HTTP/1.1\r\nHost: x\r\n\r\n" +
		"GET /buffered HTTP/1.1\r\nHost: x\r\n\r\n" +
		"HEAD /plain HTTP/1.1\r\nHost: x\r\n\r\n" +
		"HEAD /invalid HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	want := "HTTP/1.1 200 OK\r\nDate: D\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nDate: D\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nDate: D\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nDate: D\r\nContent-Length: 5\r\n\r\nHello" +
		"HTTP/1.1 200 OK\r\nDate: D\r\nContent-Length: 5\r\n\r\n" +
		"HTTP/1.1 500 Internal Server Error\r\nDate: D\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 22\r\nConnection: close\r\n\r\n"
	if got := c.readUntilClose(); got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}
