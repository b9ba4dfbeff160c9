package compress

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// TestStreamFlush: a streamed body is compressed as it goes, and what a
// Flush sent decodes before the handler writes more.
func TestStreamFlush(t *testing.T) {
	part1, part2 := jsonBody(3000), jsonBody(5000)
	for _, coding := range []string{Gzip, Zstd, Brotli} {
		t.Run(coding, func(t *testing.T) {
			decoded := make(chan struct{})
			srv := &brisk.Server{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
				Handler: New(Config{})(func(c *brisk.Ctx) {
					c.Response.Header.Set("Content-Type", "application/json")
					c.Response.Header.Set("Content-Length", "8000") // of the identity body: dropped
					w := c.BodyWriter()
					w.Write(part1)
					w.Flush()
					select {
					case <-decoded:
					case <-time.After(5 * time.Second):
						return
					}
					w.Write(part2)
				})}
			ln := brisktest.NewListener()
			go srv.Serve(ln)
			defer srv.Shutdown(context.Background())
			nc, _ := ln.Dial()
			defer nc.Close()
			go io.WriteString(nc, "GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: "+coding+"\r\n\r\n")
			resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Header.Get("Content-Encoding") != coding || resp.ContentLength != -1 ||
				resp.TransferEncoding[0] != "chunked" {
				t.Fatalf("fields %v", resp.Header)
			}
			var r io.Reader
			switch coding {
			case Gzip:
				r, err = gzip.NewReader(resp.Body)
			case Zstd:
				r, err = zstd.NewReader(resp.Body)
			case Brotli:
				r = brotli.NewReader(resp.Body)
			}
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(part1))
			if _, err := io.ReadFull(r, got); err != nil || !bytes.Equal(got, part1) {
				t.Fatalf("first part after Flush: %v", err)
			}
			close(decoded)
			rest, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(rest, part2) {
				t.Fatalf("second part: %d bytes, %v", len(rest), err)
			}
		})
	}
}

// TestStreamNegotiation: a streamed body follows the same choice as a
// buffered one, identity's weight included.
func TestStreamNegotiation(t *testing.T) {
	body := jsonBody(4 << 10)
	do := serve(t, Config{}, func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "application/json")
		c.BodyWriter().Write(body)
	})
	for _, tc := range []struct{ name, accept, want string }{
		{"identity_preferred", "br;q=0.1, identity", ""},
		{"coding_preferred", "br, identity;q=0.5", Brotli},
		{"tie_goes_to_coding", "gzip;q=0.5, identity;q=0.5", Gzip},
		{"star_under_identity", "*;q=0.1, identity;q=0.2", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, got := do("GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: " + tc.accept + "\r\n")
			ce := resp.Header.Get("Content-Encoding")
			if ce != tc.want || resp.Header.Get("Vary") != "Accept-Encoding" {
				t.Fatalf("Content-Encoding %q, Vary %q; want %q, Accept-Encoding", ce, resp.Header.Get("Vary"), tc.want)
			}
			if !bytes.Equal(decodeBody(t, ce, got), body) {
				t.Fatalf("decoded body differs")
			}
		})
	}
}
