package files_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"testing/fstest"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/files"
	"github.com/brisk-http/brisk/internal/testsupport/cputime"
	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
)

// BenchmarkFileServer serves 10,000 keep-alive requests per fake
// connection (internal/testsupport/fakenet: no socket, so no
// sendfile): a 1 KiB file from the cache of small files, a range of it,
// a 304, a precompressed sibling, the same file with the cache off, and
// a 1 MiB file on disk (os.Root), streamed. One op is one request.
// Beside ns/op it reports cpu-ns/op, the process's CPU time per request,
// steadier than wall time on a busy machine.
func BenchmarkFileServer(b *testing.B) {
	modtime := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	data := make([]byte, 1<<10)
	for i := range data {
		data[i] = 'a' + byte(i%26)
	}
	mfs := fstest.MapFS{
		"f.txt":    {Data: data, ModTime: modtime},
		"f.txt.gz": {Data: []byte("GZ"), ModTime: modtime},
	}
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), make([]byte, 1<<20), 0o644); err != nil {
		b.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	const get = "GET /f.txt HTTP/1.1\r\nHost: x\r\n"
	for _, bc := range []struct {
		name, req string
		fsrv      *files.Server
	}{
		{"1KiB", get + "\r\n", &files.Server{FS: mfs}},
		{"1KiB-range", get + "Range: bytes=10-99\r\n\r\n", &files.Server{FS: mfs}},
		{"1KiB-304", get + "If-None-Match: \"400-" + strconv.FormatInt(modtime.UnixNano(), 16) + "\"\r\n\r\n", &files.Server{FS: mfs}},
		{"1KiB-precompressed", get + "Accept-Encoding: gzip, br\r\n\r\n", &files.Server{FS: mfs, Precompressed: true}},
		{"1KiB-uncached", get + "\r\n", &files.Server{FS: mfs, CacheBytes: -1}},
		{"1MiB-disk", "GET /big.txt HTTP/1.1\r\nHost: x\r\n\r\n", &files.Server{FS: root.FS()}},
	} {
		b.Run(bc.name, func(b *testing.B) { benchmarkFiles(b, bc.fsrv, []byte(bc.req)) })
	}
}

// benchmarkFiles serves b.N requests for req to fsrv over fake
// connections of 10,000 requests each.
func benchmarkFiles(b *testing.B, fsrv *files.Server, req []byte) {
	ln := fakenet.NewListener()
	s := &brisk.Server{Handler: fsrv.Handle, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	go s.Serve(ln)
	defer s.Shutdown(context.Background())
	batch := fakenet.Batch(req, 1)
	b.ReportAllocs()
	cpu0, cpuOK := cputime.Process()
	b.ResetTimer()
	for left := b.N; left > 0; {
		n := min(10000, left)
		c := fakenet.NewConn(batch, len(req), n)
		ln.Push(c)
		<-c.Done()
		left -= n
	}
	b.StopTimer()
	if cpu1, _ := cputime.Process(); cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}
