package bench

import (
	"context"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
	"github.com/valyala/fasthttp"
)

// The server benchmarks drive each server the same way, modelled on
// brisk's in-package benchmarks (and fasthttp's own): the server runs
// Serve on a fakenet.Listener; the benchmark hands it one fakenet.Conn at a time
// carrying reqsPerConn requests (the last one fewer, so that the total is
// b.N) and waits until the server closes it, at the io.EOF after the last
// request. One op is one request: read, parse, handler, response written.
// All three are used as shipped (Serve, their own connection loop and
// buffers: brisk's goroutine per connection, fasthttp's worker pool,
// net/http's goroutine per connection with its background read), with
// logging discarded and fasthttp's default Server field off so that the
// three responses carry the same fields: status line, Content-Type,
// Content-Length, Date and the 13-byte body. The metrics B/resp and
// writes/req show that they write comparable bytes; cpu-ns/op is the CPU
// time of the whole process per request (all goroutines, GC included),
// steadier than wall time on a shared machine.
//
// The handler work is the same: answer 200 with Content-Type: text/plain
// and "Hello, World!"; for POST first read the whole 54-byte body (brisk:
// Request.Body, fasthttp: PostBody, net/http: reading Request.Body to
// EOF into a reused buffer) and check its length.

// serverHelloBody is the response body of every benchmark handler.
const serverHelloBody = "Hello, World!"

// twinServer is one implementation under benchmark: serve runs it on ln until
// stop is called.
type twinServer struct {
	serve func(ln net.Listener) error
	stop  func()
}

// bodyCheck counts requests whose body a handler found of the wrong length.
type bodyCheck struct {
	want int
	bad  atomic.Int64
}

func (c *bodyCheck) check(n int) {
	if n != c.want {
		c.bad.Add(1)
	}
}

func newBrisk(post *bodyCheck) twinServer {
	h := func(c *brisk.Ctx) {
		if post != nil {
			body, err := c.Request.Body()
			if err != nil {
				post.check(-1)
			} else {
				post.check(len(body))
			}
		}
		c.Response.Header.Set("Content-Type", "text/plain")
		c.Response.SetBodyString(serverHelloBody)
	}
	s := &brisk.Server{Handler: h, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	return twinServer{serve: s.Serve, stop: func() { s.Shutdown(context.Background()) }}
}

func newFasthttp(post *bodyCheck) twinServer {
	body := []byte(serverHelloBody)
	h := func(c *fasthttp.RequestCtx) {
		if post != nil {
			post.check(len(c.PostBody()))
		}
		c.Response.Header.SetContentType("text/plain")
		c.Response.SetBody(body)
	}
	s := &fasthttp.Server{Handler: h, NoDefaultServerHeader: true, Logger: log.New(io.Discard, "", 0)}
	return twinServer{serve: s.Serve, stop: func() { s.Shutdown() }}
}

func newNethttp(post *bodyCheck) twinServer {
	body := []byte(serverHelloBody)
	var buf [512]byte // handlers run one at a time: one connection at a time
	h := func(w http.ResponseWriter, r *http.Request) {
		if post != nil {
			n, err := readBody(r.Body, buf[:])
			if err != nil {
				n = -1
			}
			post.check(n)
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write(body)
	}
	s := &http.Server{Handler: http.HandlerFunc(h), ErrorLog: log.New(io.Discard, "", 0)}
	return twinServer{serve: s.Serve, stop: func() { s.Shutdown(context.Background()) }}
}

// readBody reads r to EOF into buf and returns the byte count; a body
// larger than buf is io.ErrShortBuffer.
func readBody(r io.Reader, buf []byte) (int, error) {
	n := 0
	for {
		if n == len(buf) {
			return n, io.ErrShortBuffer
		}
		k, err := r.Read(buf[n:])
		n += k
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// newTwinServer returns the named implementation; post non-nil makes its
// handler read and check the request body.
func newTwinServer(impl string, post *bodyCheck) twinServer {
	switch impl {
	case "brisk":
		return newBrisk(post)
	case "fasthttp":
		return newFasthttp(post)
	}
	return newNethttp(post)
}

// benchmarkServers runs one sub-benchmark per implementation: b.N requests
// of the fixture, reqsPerConn per connection, perRead per Read.
func benchmarkServers(b *testing.B, fixture string, reqsPerConn, perRead int) {
	req := readFixture(b, fixture)
	for _, impl := range impls {
		b.Run(impl, func(b *testing.B) {
			var post *bodyCheck
			if n := wantContentLength[fixture]; n >= 0 {
				post = &bodyCheck{want: int(n)}
			}
			benchmarkServer(b, newTwinServer(impl, post), req, reqsPerConn, perRead)
			if post != nil && post.bad.Load() != 0 {
				b.Fatalf("%d requests with a body of the wrong length", post.bad.Load())
			}
		})
	}
}

func benchmarkServer(b *testing.B, s twinServer, req []byte, reqsPerConn, perRead int) {
	ln := fakenet.NewListener()
	done := make(chan error, 1)
	go func() { done <- s.serve(ln) }()
	batch := fakenet.Batch(req, perRead)
	var writes, written int
	b.SetBytes(int64(len(req)))
	b.ReportAllocs()
	b.ResetTimer()
	stop := processCPUClock(b)
	for left := b.N; left > 0; {
		n := min(reqsPerConn, left)
		c := fakenet.NewConn(batch, len(req), n)
		ln.Push(c)
		<-c.Done()
		left -= n
		writes += c.Writes()
		written += c.Written()
	}
	b.StopTimer()
	stop()
	b.ReportMetric(float64(writes)/float64(b.N), "writes/req")
	b.ReportMetric(float64(written)/float64(b.N), "B/resp")
	if written == 0 {
		b.Fatal("no response written")
	}
	s.stop()
	ln.Close()
	<-done
}

// BenchmarkServerGet1ReqPerConn serves one GET (tfb fixture) per
// connection: the cost of accepting and setting up a connection.
func BenchmarkServerGet1ReqPerConn(b *testing.B) {
	benchmarkServers(b, "tfb", 1, 1)
}

// BenchmarkServerGet10KReqPerConn serves 10,000 keep-alive GETs (tfb
// fixture) per connection, one per Read.
func BenchmarkServerGet10KReqPerConn(b *testing.B) {
	benchmarkServers(b, "tfb", 10000, 1)
}

// BenchmarkServerGetBrowser10KReqPerConn is ServerGet10KReqPerConn with
// the 718-byte browser head.
func BenchmarkServerGetBrowser10KReqPerConn(b *testing.B) {
	benchmarkServers(b, "browser", 10000, 1)
}

// BenchmarkServerPost10KReqPerConn serves 10,000 keep-alive POSTs with a
// 54-byte body (post fixture) per connection; the handler reads the body.
func BenchmarkServerPost10KReqPerConn(b *testing.B) {
	benchmarkServers(b, "post", 10000, 1)
}

// BenchmarkServerGetPipelined16 delivers 16 GETs per Read, as a
// pipelining client does: a server that batches the 16 responses into one
// write shows writes/req near 1/16.
func BenchmarkServerGetPipelined16(b *testing.B) {
	benchmarkServers(b, "tfb", 10000, 16)
}
