//go:build !race

package compress

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestAllocsPerDecodedRequest: once warm, a keep-alive POST whose 60 KiB
// JSON body is decoded with BodyReader allocates once (the reader
// returned), whatever the coding: the decoders are pooled.
func TestAllocsPerDecodedRequest(t *testing.T) {
	for _, coding := range []string{"", Gzip, Zstd, Brotli} {
		t.Run("coding="+coding, func(t *testing.T) {
			exchange := decodingServer(t, coding)
			exchange()
			exchange()
			if n := testing.AllocsPerRun(50, exchange); n > 1 {
				t.Errorf("%v allocs per decoded request, want at most 1", n)
			}
		})
	}
}

// BenchmarkBodyReader measures a keep-alive POST of a 60 KiB JSON body
// decoded with BodyReader, over loopback TCP.
func BenchmarkBodyReader(b *testing.B) {
	for _, coding := range []string{"", Gzip, Zstd, Brotli} {
		b.Run("coding="+coding, func(b *testing.B) {
			exchange := decodingServer(b, coding)
			exchange()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				exchange()
			}
		})
	}
}

// decodingServer starts a server whose handler reads the request body
// through BodyReader and answers 200 when it decodes to the JSON body,
// and returns a function sending it one such POST in coding ("" for
// none) on a keep-alive connection.
func decodingServer(t testing.TB, coding string) (exchange func()) {
	plain := jsonBody(60 << 10)
	body := plain
	if coding != "" {
		body = encode(t, coding, plain)
	}
	buf := make([]byte, 16<<10) // the handler's, reused: requests come one at a time
	srv := &brisk.Server{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Handler: func(c *brisk.Ctx) {
			r, err := BodyReader(c, 0)
			if err != nil {
				c.Response.SetStatusCode(Status(err))
				return
			}
			n := 0
			for err == nil {
				var m int
				m, err = r.Read(buf)
				n += m
			}
			r.Close()
			if err != io.EOF || n != len(plain) {
				c.Response.SetStatusCode(500)
			}
		}}
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
	head := "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n"
	if coding != "" {
		head += "Content-Encoding: " + coding + "\r\n"
	}
	req := append([]byte(head+"\r\n"), body...)
	nc.Write(req)
	resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
	if err != nil || resp.StatusCode != 200 || resp.ContentLength != 0 {
		t.Fatalf("%v, %v", resp, err)
	}
	// Each response has the same length, the Date field's value being of
	// fixed length.
	want := len("HTTP/1.1 200 OK\r\n") + 2
	for k, vs := range resp.Header {
		for _, v := range vs {
			want += len(k + ": " + v + "\r\n")
		}
	}
	got := make([]byte, want)
	return func() {
		if _, err := nc.Write(req); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(nc, got); err != nil {
			t.Fatal(err)
		}
		if string(got[:12]) != "HTTP/1.1 200" {
			t.Fatalf("response %q", got)
		}
	}
}
