package reverseproxy

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestProxyCutShort: a response the upstream cuts short reaches the client
// cut short: a Content-Length body short of its length, a chunked body
// without its last chunk, and the client's connection closed, never a
// complete-looking response.
func TestProxyCutShort(t *testing.T) {
	cases := []struct {
		name, resp string
	}{
		{"length", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789"},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\n0123456789\r\n"},
		{"chunked_mid_chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n64\r\n0123456789"},
		{"chunked_bad_size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\n0123456789\r\nzz\r\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			up := rawBackend(t, func(c net.Conn) {
				readHead(bufio.NewReader(c))
				io.WriteString(c, tc.resp)
			})
			p := &Proxy{Upstreams: []string{up}}
			record := records(t, p)
			addr := front(t, p)
			resp, body, err := roundTrip(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
			if resp.StatusCode != 200 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("body %q ended with %v, want io.ErrUnexpectedEOF", body, err)
			}
			if !strings.HasPrefix("0123456789", body) { // the bytes before a framing error may be dropped
				t.Errorf("body %q", body)
			}
			var e *Error
			rec := record(1)
			if !errors.As(rec.Err, &e) || e.Phase != PhaseResponse || e.Status != 0 {
				t.Errorf("record error %v, want a response-phase *Error", rec.Err)
			}
		})
	}
}

// TestProxyStreamsChunked: a chunked request body with trailers reaches
// the upstream chunked, with its trailers; a chunked response with
// trailers reaches the client likewise, each chunk as it comes.
func TestProxyStreamsChunked(t *testing.T) {
	got := make(chan string, 1)
	up := backend(t, func(c *brisk.Ctx) {
		b, err := c.Request.Body()
		got <- string(b) + "|" + string(c.Request.Trailer.Get("X-Sum")) + "|" + errString(err) +
			"|" + string(c.Request.Header.Get("Transfer-Encoding"))
		c.Response.Header.Set("Trailer", "X-Done")
		w := c.BodyWriter()
		w.WriteString("part1,")
		w.Flush()
		w.WriteString("part2")
		c.Response.Trailer.Set("X-Done", "yes")
	})
	addr := front(t, &Proxy{Upstreams: []string{up}})
	resp, body, err := roundTrip(t, addr, "POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"+
		"Trailer: X-Sum\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\nX-Sum: 42\r\n\r\n")
	if err != nil || body != "part1,part2" {
		t.Fatalf("body %q, err %v", body, err)
	}
	if v := resp.Trailer.Get("X-Done"); v != "yes" {
		t.Errorf("response trailer X-Done = %q", v)
	}
	if g := <-got; g != "hello world|42||chunked" {
		t.Errorf("backend got %q", g)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestProxyNoBodyFraming: responses to HEAD, and 204 and 304, carry no
// body through the proxy; HEAD keeps the upstream's Content-Length, and
// the connection stays usable for the next request.
func TestProxyNoBodyFraming(t *testing.T) {
	up := backend(t, func(c *brisk.Ctx) {
		switch string(c.Request.Path()) {
		case "/204":
			c.Response.SetStatusCode(204)
		case "/304":
			c.Response.SetStatusCode(304)
			c.Response.Header.Set("ETag", `"x"`)
		default:
			c.Response.WriteString("hello, world")
		}
	})
	addr := front(t, &Proxy{Upstreams: []string{up}})
	c := dial(t, addr)
	io.WriteString(c, "HEAD / HTTP/1.1\r\nHost: x\r\n\r\nGET /204 HTTP/1.1\r\nHost: x\r\n\r\n"+
		"GET /304 HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(c)
	for i, want := range []struct {
		method     string
		status     int
		length     int64
		body, etag string
	}{{"HEAD", 200, 12, "", ""}, {"GET", 204, 0, "", ""}, {"GET", 304, 0, "", `"x"`}, {"GET", 200, 12, "hello, world", ""}} {
		resp, err := http.ReadResponse(br, &http.Request{Method: want.method})
		if err != nil {
			t.Fatalf("response %d: %v", i, err)
		}
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != want.status || string(b) != want.body || resp.ContentLength != want.length ||
			resp.Header.Get("ETag") != want.etag {
			t.Errorf("response %d: %d %q length %d etag %q (%v), want %+v", i, resp.StatusCode, b,
				resp.ContentLength, resp.Header.Get("ETag"), err, want)
		}
	}
}

// TestProxyUpstreamHead: the framing of a response is decided again: a
// close-delimited upstream body reaches an HTTP/1.1 client chunked, and
// an HTTP/1.0 client close-delimited.
func TestProxyCloseDelimited(t *testing.T) {
	up := rawBackend(t, func(c net.Conn) {
		readHead(bufio.NewReader(c))
		io.WriteString(c, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end")
	})
	addr := front(t, &Proxy{Upstreams: []string{up}})
	resp, body, err := roundTrip(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	if err != nil || body != "until the end" || !slicesEqual(resp.TransferEncoding, []string{"chunked"}) || resp.Close {
		t.Errorf("HTTP/1.1: %q %v TE %v close %v", body, err, resp.TransferEncoding, resp.Close)
	}
	resp, body, err = roundTrip(t, addr, "GET / HTTP/1.0\r\nHost: x\r\n\r\n")
	if err != nil || body != "until the end" || !resp.Close {
		t.Errorf("HTTP/1.0: %q %v close %v", body, err, resp.Close)
	}
}

func slicesEqual(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

// TestProxyLengthInParts: a Content-Length body whose first bytes come
// with the head and the rest after a pause (the head waits for them, to
// leave in one write) reaches the client whole, once.
func TestProxyLengthInParts(t *testing.T) {
	up := rawBackend(t, func(c net.Conn) {
		readHead(bufio.NewReader(c))
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 30\r\n\r\n0123456789")
		time.Sleep(50 * time.Millisecond)
		io.WriteString(c, "abcdefghij")
		time.Sleep(50 * time.Millisecond)
		io.WriteString(c, "ABCDEFGHIJ")
	})
	addr := front(t, &Proxy{Upstreams: []string{up}})
	resp, body, err := roundTrip(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	if err != nil || resp.StatusCode != 200 || body != "0123456789abcdefghijABCDEFGHIJ" {
		t.Fatalf("%d %q %v", resp.StatusCode, body, err)
	}
}
