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
// loopback TCP. (Brotli's encoder allocates on Reset; it is left out.)
func TestAllocsPerCompressedResponse(t *testing.T) {
	body := jsonBody(60 << 10)
	for _, coding := range []string{Gzip, Zstd} {
		t.Run(coding, func(t *testing.T) {
			srv := &brisk.Server{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
				Handler: New(Config{})(func(c *brisk.Ctx) {
					c.Response.Header.Set("Content-Type", "application/json")
					c.Response.SetBody(body)
				})}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go srv.Serve(ln)
			defer srv.Shutdown(context.Background())
			nc, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			req := []byte("GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: " + coding + "\r\n\r\n")
			nc.Write(req)
			resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
			if err != nil || resp.Header.Get("Content-Encoding") != coding {
				t.Fatalf("%v, %v", resp, err)
			}
			// Each response has the same length, the Date field's value
			// being of fixed length: the head's fields, CRLF, the body.
			rest, _ := io.ReadAll(io.LimitReader(resp.Body, resp.ContentLength))
			var head []byte
			for k, vs := range resp.Header {
				for _, v := range vs {
					head = append(head, k+": "+v+"\r\n"...)
				}
			}
			want := len("HTTP/1.1 200 OK\r\n") + len(head) + 2 + len(rest)
			buf := make([]byte, want+1)
			exchange := func() {
				if _, err := nc.Write(req); err != nil {
					t.Fatal(err)
				}
				if _, err := io.ReadFull(nc, buf[:want]); err != nil {
					t.Fatal(err)
				}
			}
			exchange()
			exchange()
			if n := testing.AllocsPerRun(100, exchange); n != 0 {
				t.Errorf("%v allocs per compressed response, want 0", n)
			}
		})
	}
}
