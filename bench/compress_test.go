package bench

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/compress"
	"github.com/valyala/fasthttp"
)

// BenchmarkCompress serves a 64 KiB JSON body (cut at 64 KiB) compressed with one coding
// (Accept-Encoding names only it), 10,000 keep-alive GETs per connection
// on the fakenet harness of the server benchmarks: brisk through the
// compress middleware, fasthttp through its compress helpers
// (AppendGzipBytesLevel, AppendZstdBytesLevel, AppendBrotliBytesLevel,
// which pool their encoders) into a reused buffer. Levels are the same on
// both sides: gzip 6, zstd 3 (SpeedDefault), Brotli 4. One op is one
// request; B/resp shows both send bodies of about the same size.
func BenchmarkCompress(b *testing.B) {
	body := benchJSON(64 << 10)[:64<<10] // a larger body is not kept by brisk's pooled Response
	for _, coding := range []string{compress.Gzip, compress.Zstd, compress.Brotli} {
		req := []byte("GET /data.json HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: " + coding + "\r\n\r\n")
		b.Run(coding, func(b *testing.B) {
			b.Run("brisk", func(b *testing.B) { benchmarkServer(b, newBriskCompress(coding, body), req, 10000, 1) })
			b.Run("fasthttp", func(b *testing.B) { benchmarkServer(b, newFasthttpCompress(coding, body), req, 10000, 1) })
		})
	}
}

func newBriskCompress(coding string, body []byte) twinServer {
	mw := compress.New(compress.Config{Codings: []string{coding}, GzipLevel: 6, ZstdLevel: 3, BrotliLevel: 4})
	h := mw(func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "application/json")
		c.Response.SetBody(body)
	})
	s := &brisk.Server{Handler: h, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	return twinServer{serve: s.Serve, stop: func() { s.Shutdown(context.Background()) }}
}

func newFasthttpCompress(coding string, body []byte) twinServer {
	var buf []byte // one connection at a time: handlers do not overlap
	h := func(c *fasthttp.RequestCtx) {
		switch coding {
		case "gzip":
			buf = fasthttp.AppendGzipBytesLevel(buf[:0], body, 6)
		case "zstd":
			buf = fasthttp.AppendZstdBytesLevel(buf[:0], body, fasthttp.CompressZstdDefault)
		case "br":
			buf = fasthttp.AppendBrotliBytesLevel(buf[:0], body, 4)
		}
		c.Response.Header.SetContentType("application/json")
		c.Response.Header.Set("Content-Encoding", coding)
		c.Response.Header.Set("Vary", "Accept-Encoding")
		c.Response.SetBody(buf)
	}
	s := &fasthttp.Server{Handler: h, NoDefaultServerHeader: true, Logger: log.New(io.Discard, "", 0)}
	return twinServer{serve: s.Serve, stop: func() { s.Shutdown() }}
}

// benchJSON returns a JSON array of records, n bytes or a little more.
func benchJSON(n int) []byte {
	b := []byte("[")
	for i := 0; len(b) < n; i++ {
		b = fmt.Appendf(b, `{"id":%d,"name":"user %d","email":"user%d@example.com","active":%t,"score":%d},`,
			i, i, i, i%3 == 0, i*37%1000)
	}
	return append(b, "{}]"...)
}
