package brisk

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// forbiddenTrailerSection is a trailer section mixing fields RFC 9110
// §6.5.1 rules out of trailers (any case) with allowed ones.
const forbiddenTrailerSection = "Content-Length: 99\r\nX-T: ok\r\ntransfer-encoding: chunked\r\n" +
	"Host: evil\r\nContent-Type: text/evil\r\nAuthorization: Basic eA==\r\nTrailer: X-T\r\n" +
	"X-Sum: 4\r\n"

// listTrailer answers with the request body's length and the request's
// trailer fields, one "name: value" line each, in received order.
func listTrailer(c *Ctx) {
	b, err := c.Request.Body()
	if err != nil {
		c.Response.SetStatusCode(400)
		return
	}
	fmt.Fprintf(&c.Response, "n=%d\n", len(b))
	for name, value := range c.Request.Trailer.All() {
		fmt.Fprintf(&c.Response, "%s: %s\n", name, value)
	}
	if h := c.Request.Header.Get("Content-Type"); h != nil {
		fmt.Fprintf(&c.Response, "header Content-Type: %s\n", h)
	}
}

// TestRequestTrailerForbiddenDropped: the forbidden fields of a request's
// trailer section are dropped from Request.Trailer (and not merged into
// Header); the allowed ones are kept in order; the request is served
// (200) and the connection stays open.
func TestRequestTrailerForbiddenDropped(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: listTrailer})
		c := ts.connect()
		for range 2 { // the trailer storage is reused by the next request
			resp, body := c.roundTrip("POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
				"3\r\nabc\r\n0\r\n" + forbiddenTrailerSection + "\r\n")
			if want := "n=3\nX-T: ok\nX-Sum: 4\n"; resp.StatusCode != 200 || body != want {
				t.Fatalf("status %d body %q; want 200 %q", resp.StatusCode, body, want)
			}
		}
		c.expectOpen()
	})
}

// TestRequestTrailerForbiddenDiff compares with net/http's server through
// FromHTTP: both answer 200 and keep the allowed trailer fields, but
// net/http's Request.Trailer also holds the forbidden ones (it does not
// merge them either), where brisk drops them (see Request.Trailer).
func TestRequestTrailerForbiddenDiff(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range r.Trailer {
				if !yield(k) {
					return
				}
			}
		})
		fmt.Fprintf(w, "trailer=%s ct=%q", strings.Join(keys, ","), r.Header.Get("Content-Type"))
	})
	netHTTP, brisk := diffServers(t, h, nil)
	raw := "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n" +
		forbiddenTrailerSection + "\r\n"
	body := func(dial func() (net.Conn, error)) string {
		got, _ := rawExchange(t, dial, raw)
		if !strings.HasPrefix(got, "HTTP/1.1 200 ") {
			t.Fatalf("response %q, want 200", got)
		}
		return got[strings.Index(got, "\r\n\r\n")+4:]
	}
	if got, want := body(netHTTP), `trailer=Authorization,Content-Length,Content-Type,Host,Trailer,Transfer-Encoding,X-Sum,X-T ct=""`; got != want {
		t.Errorf("net/http: %q, want %q", got, want)
	}
	if got, want := body(brisk), `trailer=X-Sum,X-T ct=""`; got != want {
		t.Errorf("brisk: %q, want %q", got, want)
	}
}

// TestResponseTrailerForbiddenDropped: of the handler's Response.Trailer,
// only the allowed fields are sent after the last chunk, as net/http
// does, and the response is otherwise intact.
func TestResponseTrailerForbiddenDropped(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
			c.Response.Trailer.Set("Content-Length", "99")
			c.Response.Trailer.Set("X-Sum", "4")
			c.Response.Trailer.Set("transfer-encoding", "chunked")
			c.Response.Trailer.Set("Content-Type", "text/evil")
			c.Response.Trailer.Set("Trailer", "X-Sum")
			c.Response.Trailer.Set("X-End", "yes")
			w := c.BodyWriter()
			w.WriteString("data")
		}})
		got, open := rawExchange(t, ts.dial, get("/"))
		if want := "4\r\ndata\r\n0\r\nX-Sum: 4\r\nX-End: yes\r\n\r\n"; !strings.HasSuffix(got, want) || !open {
			t.Errorf("response %q (open %v), want it to end with %q and stay open", got, open, want)
		}
	})
}
