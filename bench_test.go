package brisk

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"testing"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
)

// helloHandler is the benchmark handler shared with bench/: 200,
// Content-Type: text/plain, body "Hello, World!".
func helloHandler(c *Ctx) {
	c.Response.Header.Set("Content-Type", "text/plain")
	c.Response.SetBodyString("Hello, World!")
}

func fixture(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile("wire/testdata/" + name) // the inputs of bench/ too
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// benchmarkServer serves b.N requests over fake connections carrying
// reqsPerConn requests each, perRead requests per Read.
func benchmarkServer(b *testing.B, req []byte, reqsPerConn, perRead int) {
	benchmarkServerWith(b, &Server{Handler: helloHandler}, req, reqsPerConn, perRead)
}

// benchmarkServerWith is benchmarkServer with the configuration s.
func benchmarkServerWith(b *testing.B, s *Server, req []byte, reqsPerConn, perRead int) {
	ln := fakenet.NewListener()
	s.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	go s.Serve(ln)
	batch := fakenet.Batch(req, perRead)
	var writes int
	b.SetBytes(int64(len(req)))
	b.ReportAllocs()
	b.ResetTimer()
	for left := b.N; left > 0; {
		n := min(reqsPerConn, left)
		c := fakenet.NewConn(batch, len(req), n)
		ln.Push(c)
		<-c.Done()
		left -= n
		writes += c.Writes()
	}
	b.StopTimer()
	b.ReportMetric(float64(writes)/float64(b.N), "writes/req")
	s.Shutdown(context.Background())
}

func BenchmarkServerGet1ReqPerConn(b *testing.B) {
	benchmarkServer(b, fixture(b, "tfb.http"), 1, 1)
}

func BenchmarkServerGet10KReqPerConn(b *testing.B) {
	benchmarkServer(b, fixture(b, "tfb.http"), 10000, 1)
}

func BenchmarkServerGetBrowser10KReqPerConn(b *testing.B) {
	benchmarkServer(b, fixture(b, "browser.http"), 10000, 1)
}

func BenchmarkServerPost10KReqPerConn(b *testing.B) {
	benchmarkServer(b, fixture(b, "post.http"), 10000, 1)
}

// BenchmarkServerGetPipelined16 receives 16 requests per read: the 16
// responses leave in one write (see writes/req).
func BenchmarkServerGetPipelined16(b *testing.B) {
	benchmarkServer(b, fixture(b, "tfb.http"), 10000, 16)
}

// BenchmarkServerGetPipelined64 overflows the write buffer with batched
// responses: it flushes when full, without growing it.
func BenchmarkServerGetPipelined64(b *testing.B) {
	benchmarkServer(b, fixture(b, "tfb.http"), 10000, 64)
}

// BenchmarkServerGet10KReqPerConnHooks is BenchmarkServerGet10KReqPerConn
// with both hooks set (doing nothing): their cost per request.
func BenchmarkServerGet10KReqPerConnHooks(b *testing.B) {
	s := &Server{
		Handler:       helloHandler,
		ConnState:     func(net.Conn, ConnState) {},
		OnRequestDone: func(*RequestInfo) {},
	}
	benchmarkServerWith(b, s, fixture(b, "tfb.http"), 10000, 1)
}
