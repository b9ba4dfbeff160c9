//go:build !race

package compress

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestAllocsPerCompressedResponse: once warm, a keep-alive GET whose 60
// KiB JSON body is compressed with gzip or zstd allocates nothing, over
// loopback TCP, its strong ETag made weak included. (Brotli's encoder
// allocates on Reset; it is left out.)
func TestAllocsPerCompressedResponse(t *testing.T) {
	body := jsonBody(60 << 10)
	for _, coding := range []string{Gzip, Zstd} {
		t.Run(coding, func(t *testing.T) {
			h := New(Config{})(func(c *brisk.Ctx) {
				c.Response.Header.Set("Content-Type", "application/json")
				c.Response.Header.Set("ETag", `"v1"`)
				c.Response.SetBody(body)
			})
			req := []byte("GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: " + coding + "\r\n\r\n")
			exchange, first := keepAliveExchange(t, h, req)
			if first.Header.Get("Content-Encoding") != coding || first.Header.Get("ETag") != `W/"v1"` {
				t.Fatalf("first response: %v", first)
			}
			exchange()
			exchange()
			if n := testing.AllocsPerRun(100, exchange); n != 0 {
				t.Errorf("%v allocs per compressed response, want 0", n)
			}
		})
	}
}

// TestAllocsPerEncodedHead: once warm, a keep-alive HEAD that gets the
// fields of a gzip-encoded 60 KiB JSON body, weak ETag included,
// allocates nothing.
func TestAllocsPerEncodedHead(t *testing.T) {
	body := jsonBody(60 << 10)
	h := New(Config{})(func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "application/json")
		c.Response.Header.Set("ETag", `"v1"`)
		c.Response.SetBody(body)
	})
	exchange, first := keepAliveExchange(t, h, []byte("HEAD / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"))
	if first.Header.Get("Content-Encoding") != Gzip || first.Header.Get("ETag") != `W/"v1"` || first.ContentLength != -1 {
		t.Fatalf("first response: %v", first)
	}
	exchange()
	if n := testing.AllocsPerRun(100, exchange); n != 0 {
		t.Errorf("%v allocs per encoded HEAD, want 0", n)
	}
}

// keepAliveExchange serves h over loopback TCP, sends it req on one
// keep-alive connection and returns that first response and a function
// sending req again and reading its response, which must be a 200 of
// the same length as the first (the Date field's value is of fixed
// length), into a buffer it reuses: the exchange allocates nothing of
// its own.
func keepAliveExchange(t testing.TB, h brisk.Handler, req []byte) (exchange func(), first *http.Response) {
	srv := &brisk.Server{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Handler: h}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.Write(req)
	first, err = http.ReadResponse(bufio.NewReader(nc), nil)
	if err != nil || first.StatusCode != 200 {
		t.Fatalf("first response: %v, %v", first, err)
	}
	body, _ := io.ReadAll(io.LimitReader(first.Body, first.ContentLength))
	want := len("HTTP/1.1 200 OK\r\n") + 2 + len(body)
	for k, vs := range first.Header {
		for _, v := range vs {
			want += len(k + ": " + v + "\r\n")
		}
	}
	buf := make([]byte, want)
	return func() {
		if _, err := nc.Write(req); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(nc, buf); err != nil {
			t.Fatal(err)
		}
		if string(buf[:12]) != "HTTP/1.1 200" {
			t.Fatalf("response %q", buf)
		}
	}, first
}
