package bench

import (
	"context"
	"io"
	"log"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/files"
	"github.com/valyala/fasthttp"
)

// BenchmarkServeFile serves one file of each size, 10,000 keep-alive GETs
// per connection on the fakenet harness of the server benchmarks: brisk's
// files.Server over os.Root, fasthttp.FS (which caches open files and their
// metadata in memory), and http.FileServer over http.Dir. fakenet is not
// a TCP socket, so no sendfile here: the body is copied on every side.
// The 1 KiB file is also asked for 16 requests per read (pipelined). One
// op is one request.
func BenchmarkServeFile(b *testing.B) {
	dir := b.TempDir()
	for _, size := range []int{1 << 10, 1 << 20} {
		name := filepath.Join(dir, "f"+sizeName(size)+".txt")
		data := benchJSON(size)[:size]
		if err := os.WriteFile(name, data, 0o644); err != nil {
			b.Fatal(err)
		}
		req := []byte("GET /" + filepath.Base(name) + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
		b.Run(sizeName(size), func(b *testing.B) {
			for _, impl := range impls {
				b.Run(impl, func(b *testing.B) { benchmarkServer(b, newFileServer(b, impl, dir), req, 10000, 1) })
			}
		})
		if size > 1<<10 {
			continue
		}
		b.Run(sizeName(size)+"-pipelined16", func(b *testing.B) {
			for _, impl := range impls {
				b.Run(impl, func(b *testing.B) { benchmarkServer(b, newFileServer(b, impl, dir), req, 10000, 16) })
			}
		})
	}
}

func sizeName(n int) string {
	if n >= 1<<20 {
		return "1MiB"
	}
	return "1KiB"
}

func newFileServer(b *testing.B, impl, dir string) twinServer {
	switch impl {
	case "brisk":
		root, err := os.OpenRoot(dir)
		if err != nil {
			b.Fatal(err)
		}
		fsrv := &files.Server{FS: root.FS()}
		s := &brisk.Server{Handler: fsrv.Handle, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
		return twinServer{serve: s.Serve, stop: func() { s.Shutdown(context.Background()); root.Close() }}
	case "fasthttp":
		fs := &fasthttp.FS{Root: dir, AcceptByteRange: true}
		s := &fasthttp.Server{Handler: fs.NewRequestHandler(), NoDefaultServerHeader: true,
			Logger: log.New(io.Discard, "", 0)}
		return twinServer{serve: s.Serve, stop: func() { s.Shutdown() }}
	}
	s := &http.Server{Handler: http.FileServer(http.Dir(dir)), ErrorLog: log.New(io.Discard, "", 0)}
	return twinServer{serve: s.Serve, stop: func() { s.Shutdown(context.Background()) }}
}
