package compress

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/files"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// jsonBody is a compressible body of n bytes or a little more.
func jsonBody(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `{"id":%d,"name":"item %d","tags":["a","b"],"ok":true},`, i, i*7)
	}
	b.WriteString(`{}]`)
	return b.Bytes()
}

// serve runs h behind the middleware on an in-memory listener and returns
// a function sending one raw request (head without the final CRLF).
func serve(t *testing.T, cfg Config, h brisk.Handler) func(raw string) (*http.Response, []byte) {
	t.Helper()
	srv := &brisk.Server{Handler: New(cfg)(h), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	return func(raw string) (*http.Response, []byte) {
		t.Helper()
		nc, err := ln.Dial()
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		go io.WriteString(nc, raw+"\r\n")
		method, _, _ := strings.Cut(raw, " ")
		resp, err := http.ReadResponse(bufio.NewReader(nc), &http.Request{Method: method})
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, body
	}
}

// decodeBody decodes body by coding.
func decodeBody(t *testing.T, coding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	switch coding {
	case "":
		return body
	case Gzip:
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case Zstd:
		zr, err := zstd.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		r = zr
	case Brotli:
		r = brotli.NewReader(bytes.NewReader(body))
	default:
		t.Fatalf("coding %q", coding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return out
}

// TestNegotiation: the coding follows Accept-Encoding's q-values, then
// the server's order; the body decodes to the original.
func TestNegotiation(t *testing.T) {
	body := jsonBody(8 << 10)
	h := func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "application/json")
		c.Response.Header.Set("ETag", `"v1"`)
		c.Response.SetBody(body)
	}
	cases := []struct {
		name, accept string
		cfg          Config
		want         string // Content-Encoding, "" for identity
	}{
		{"none", "", Config{}, ""},
		{"gzip", "gzip", Config{}, Gzip},
		{"x_gzip", "x-gzip", Config{}, Gzip},
		{"zstd", "zstd", Config{}, Zstd},
		{"br", "br", Config{}, Brotli},
		{"server_order", "gzip, br, zstd", Config{}, Zstd},
		{"custom_order", "gzip, br, zstd", Config{Codings: []string{Gzip, Brotli}}, Gzip},
		{"q_values", "gzip;q=1, br;q=0.9, zstd;q=0.1", Config{}, Gzip},
		{"star", "*", Config{}, Zstd},
		{"star_but_zstd", "*, zstd;q=0", Config{}, Brotli},
		{"all_refused", "gzip;q=0, br;q=0, zstd;q=0", Config{}, ""},
		{"identity", "identity", Config{}, ""},
		{"unknown", "deflate, compress", Config{}, ""},
		{"levels", "br", Config{BrotliLevel: 11, GzipLevel: 9, ZstdLevel: 19}, Brotli},

		// Identity's weight against the codings' (RFC 9110 §12.5.3).
		{"identity_preferred", "br;q=0.1, identity", Config{}, ""},
		{"coding_preferred", "br, identity;q=0.5", Config{}, Brotli},
		{"tie_goes_to_coding", "br;q=0.5, identity;q=0.5", Config{}, Brotli},
		{"tie_listed_identity", "gzip, identity", Config{}, Gzip},
		{"star_over_identity", "*;q=0.2, identity;q=0.1", Config{}, Zstd},
		{"star_under_identity", "*;q=0.1, identity;q=0.2", Config{}, ""},
		{"below_identity_skipped", "br;q=0.2, gzip;q=0.5, identity;q=0.3", Config{}, Gzip},
		{"gzip_refused_star", "gzip;q=0, *", Config{}, Zstd},
		{"gzip_refused_star_only_gzip", "gzip;q=0, *", Config{Codings: []string{Gzip}}, ""},
		{"identity_zero_no_coding", "identity;q=0", Config{}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			raw := "GET / HTTP/1.1\r\nHost: x\r\n"
			if tc.accept != "" {
				raw += "Accept-Encoding: " + tc.accept + "\r\n"
			}
			resp, got := serve(t, tc.cfg, h)(raw)
			ce := resp.Header.Get("Content-Encoding")
			if ce != tc.want {
				t.Fatalf("Content-Encoding %q, want %q", ce, tc.want)
			}
			if !bytes.Equal(decodeBody(t, ce, got), body) {
				t.Fatalf("decoded body differs")
			}
			if v := resp.Header.Get("Vary"); v != "Accept-Encoding" {
				t.Errorf("Vary %q", v)
			}
			wantTag := `"v1"`
			if ce != "" {
				wantTag = `W/"v1"`
				if len(got) >= len(body)/2 || resp.ContentLength != int64(len(got)) {
					t.Errorf("%d bytes for %d, Content-Length %d", len(got), len(body), resp.ContentLength)
				}
			}
			if tag := resp.Header.Get("ETag"); tag != wantTag {
				t.Errorf("ETag %q, want %q", tag, wantTag)
			}
		})
	}
}

// TestNotCompressed lists the responses left alone, and whether each
// still gets "Vary: Accept-Encoding".
func TestNotCompressed(t *testing.T) {
	body := jsonBody(4 << 10)
	cases := []struct {
		name   string
		method string
		set    func(c *brisk.Ctx)
		vary   string
	}{
		{"small", "GET", func(c *brisk.Ctx) { c.Response.SetBody(body[:1000]) }, "Accept-Encoding"},
		{"empty", "GET", func(c *brisk.Ctx) { c.Response.SetBody(nil) }, ""},
		{"image", "GET", func(c *brisk.Ctx) { c.Response.Header.Set("Content-Type", "image/png") }, ""},
		{"no_type", "GET", func(c *brisk.Ctx) { c.Response.Header.Del("Content-Type") }, ""},
		{"partial", "GET", func(c *brisk.Ctx) { c.Response.SetStatusCode(206) }, ""},
		{"content_range", "GET", func(c *brisk.Ctx) { c.Response.Header.Set("Content-Range", "bytes 0-1/2") }, ""},
		{"not_modified", "GET", func(c *brisk.Ctx) { c.Response.SetStatusCode(304) }, ""},
		{"no_content", "GET", func(c *brisk.Ctx) { c.Response.SetStatusCode(204) }, ""},
		{"encoded", "GET", func(c *brisk.Ctx) { c.Response.Header.Set("Content-Encoding", "gzip") }, ""},
		{"no_transform", "GET", func(c *brisk.Ctx) { c.Response.Header.Set("Cache-Control", "public, no-transform") }, ""},
		{"vary_star", "GET", func(c *brisk.Ctx) { c.Response.Header.Set("Vary", "*"); c.Response.SetBody(body[:10]) }, "*"},
		{"vary_kept", "GET", func(c *brisk.Ctx) { c.Response.Header.Set("Vary", "Origin"); c.Response.SetBody(body[:10]) },
			"Origin, Accept-Encoding"},
		{"incompressible", "GET", func(c *brisk.Ctx) {
			c.Response.SetBody(randomBytes(4096))
		}, "Accept-Encoding"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			send := serve(t, Config{}, func(c *brisk.Ctx) {
				c.Response.Header.Set("Content-Type", "text/plain")
				c.Response.SetBody(body)
				tc.set(c)
			})
			resp, _ := send(tc.method + " / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, br, zstd\r\n")
			if ce := resp.Header.Get("Content-Encoding"); ce != "" && tc.name != "encoded" {
				t.Errorf("Content-Encoding %q", ce)
			}
			if v := strings.Join(resp.Header.Values("Vary"), ", "); v != tc.vary {
				t.Errorf("Vary %q, want %q", v, tc.vary)
			}
		})
	}
}

// TestPrecompressedIdentityRuledOut: a Precompressed files.Server without
// the sibling a client asks for sends the file as is even when the
// client ruled out identity, so the middleware in front encodes it.
func TestPrecompressedIdentityRuledOut(t *testing.T) {
	mtime := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	plain := jsonBody(4096)
	fsrv := &files.Server{FS: fstest.MapFS{"a.json": {Data: plain, ModTime: mtime}}, Precompressed: true}
	do := serve(t, Config{Codings: []string{Gzip}}, fsrv.Handle)
	for range 2 { // the second from the files.Server's cache
		resp, body := do("GET /a.json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, identity;q=0\r\n")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(decodeBody(t, Gzip, body), plain) ||
			resp.Header.Get("Vary") != "Accept-Encoding" {
			t.Fatalf("%d, Content-Encoding %q, Vary %q, %d bytes; want 200 gzip of %d bytes", resp.StatusCode,
				resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"), len(body), len(plain))
		}
	}
}

// TestCompressible checks the default media-type rule.
func TestCompressible(t *testing.T) {
	for ct, want := range map[string]bool{
		"text/html; charset=utf-8": true, "TEXT/CSS": true, "application/json": true,
		"application/ld+json": true, "image/svg+xml": true, "application/wasm": true,
		"application/javascript": true, "image/png": false, "video/mp4": false, "font/woff2": false,
		"application/octet-stream": false, "": false, "application/zip": false,
	} {
		if got := Compressible([]byte(ct)); got != want {
			t.Errorf("Compressible(%q) = %v, want %v", ct, got, want)
		}
	}
}

// TestConfigPanics: invalid configurations are refused by New.
func TestConfigPanics(t *testing.T) {
	for name, cfg := range map[string]Config{
		"unknown_coding": {Codings: []string{"deflate"}},
		"gzip_level":     {GzipLevel: 10},
		"brotli_level":   {BrotliLevel: 12},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("New did not panic")
				}
			}()
			New(cfg)
		})
	}
}

// randomBytes returns n incompressible bytes, the same on each call.
func randomBytes(n int) []byte {
	r := rand.NewChaCha8([32]byte{1})
	b := make([]byte, n)
	r.Read(b)
	return b
}
