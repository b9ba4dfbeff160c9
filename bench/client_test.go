package bench

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"
)

// The client twins: brisk.Client, fasthttp.Client and net/http's Client
// send the same keep-alive GET to the same server, a fasthttp.Server
// answering 200 "Hello, World!" (a neutral server: none of the clients
// is measured against its own). Over tcp the server listens on loopback;
// over inmemory each client dials its library's in-memory listener (brisk
// and fasthttp; net/http, which has none, dials fasthttputil's), served by
// the same fasthttp.Server. Over tcpchild the server runs in a child
// process (clientchild_test.go). Requests come from GOMAXPROCS goroutines
// (b.RunParallel); allocations and cpu-ns/op (process CPU time, which
// does not grow while the process waits for a CPU on a loaded machine)
// count client and server, except over tcpchild: the client alone.

var clientHelloBody = []byte("Hello, World!")

func helloServer() *fasthttp.Server {
	return &fasthttp.Server{Logger: log.New(io.Discard, "", 0), Handler: func(c *fasthttp.RequestCtx) {
		c.Response.Header.SetContentType("text/plain")
		c.Response.SetBody(clientHelloBody)
	}}
}

// serve runs a hello server on ln until the benchmark ends.
func serve(b *testing.B, ln net.Listener) {
	s := helloServer()
	go s.Serve(ln)
	b.Cleanup(func() { s.Shutdown() })
}

// endpoint is where a client sends its GETs: a URI and, for in-memory
// transports, the dial function. serverCPU, when not nil, measures a
// server running in another process (see clientchild_test.go): called
// after b.ResetTimer, its result after the benchmark loop.
type endpoint struct {
	uri       string
	dial      func(ctx context.Context, network, addr string) (net.Conn, error)
	serverCPU func(b *testing.B) (stop func())
}

func tcpEndpoint(b *testing.B) endpoint {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	serve(b, ln)
	return endpoint{uri: "http://" + ln.Addr().String() + "/plaintext"}
}

func briskInmemory(b *testing.B) endpoint {
	ln := brisktest.NewListener()
	serve(b, ln)
	return endpoint{uri: "http://inmemory/plaintext", dial: ln.DialContext}
}

func fasthttpInmemory(b *testing.B) endpoint {
	ln := fasthttputil.NewInmemoryListener()
	serve(b, ln)
	return endpoint{uri: "http://inmemory/plaintext", dial: func(context.Context, string, string) (net.Conn, error) {
		return ln.Dial()
	}}
}

func BenchmarkClientGetEndToEnd(b *testing.B) {
	b.Run("brisk/tcp", func(b *testing.B) { benchBrisk(b, tcpEndpoint(b)) })
	b.Run("brisk/inmemory", func(b *testing.B) { benchBrisk(b, briskInmemory(b)) })
	b.Run("fasthttp/tcp", func(b *testing.B) { benchFasthttp(b, tcpEndpoint(b)) })
	b.Run("fasthttp/inmemory", func(b *testing.B) { benchFasthttp(b, fasthttpInmemory(b)) })
	b.Run("nethttp/tcp", func(b *testing.B) { benchNethttp(b, tcpEndpoint(b)) })
	b.Run("nethttp/inmemory", func(b *testing.B) { benchNethttp(b, fasthttpInmemory(b)) })
	b.Run("brisk/tcpchild", func(b *testing.B) { benchBrisk(b, tcpChildEndpoint(b)) })
	b.Run("fasthttp/tcpchild", func(b *testing.B) { benchFasthttp(b, tcpChildEndpoint(b)) })
	b.Run("nethttp/tcpchild", func(b *testing.B) { benchNethttp(b, tcpChildEndpoint(b)) })
}

// BenchmarkClientGetEndToEndSameListener runs brisk's client over
// fasthttputil's in-memory listener, to separate the client from the
// pipe implementation in the inmemory comparison.
func BenchmarkClientGetEndToEndSameListener(b *testing.B) {
	b.Run("brisk/fasthttputil", func(b *testing.B) { benchBrisk(b, fasthttpInmemory(b)) })
}

// clientDo sends one GET and returns the response's status code and body
// (valid until the next call) or an error.
type clientDo func() (status int, body []byte, err error)

// runClient measures GETs to ep from GOMAXPROCS goroutines, each with its
// own clientDo from newDo, and checks every response: 200 and the 13-byte
// body.
func runClient(b *testing.B, ep endpoint, newDo func() (clientDo, error)) {
	b.ReportAllocs()
	b.ResetTimer()
	if ep.serverCPU != nil {
		defer ep.serverCPU(b)()
	}
	defer processCPUClock(b)()
	b.RunParallel(func(pb *testing.PB) {
		do, err := newDo()
		if err != nil {
			b.Error(err)
			return
		}
		for pb.Next() {
			status, body, err := do()
			if err != nil {
				b.Error(err)
				return
			}
			if status != 200 || len(body) != len(clientHelloBody) {
				b.Errorf("%d %q", status, body)
				return
			}
		}
	})
}

func benchBrisk(b *testing.B, ep endpoint) {
	c := &brisk.Client{ClientConfig: brisk.ClientConfig{Dial: ep.dial}}
	defer c.CloseIdleConnections()
	runClient(b, ep, func() (clientDo, error) {
		var req brisk.Request
		var resp brisk.Response
		req.SetURI(ep.uri)
		return func() (int, []byte, error) {
			err := c.Do(&req, &resp)
			return resp.StatusCode(), resp.Body(), err
		}, nil
	})
}

func benchFasthttp(b *testing.B, ep endpoint) {
	c := &fasthttp.Client{}
	if ep.dial != nil {
		c.Dial = func(addr string) (net.Conn, error) { return ep.dial(context.Background(), "tcp", addr) }
	}
	defer c.CloseIdleConnections()
	runClient(b, ep, func() (clientDo, error) {
		var req fasthttp.Request
		var resp fasthttp.Response
		req.SetRequestURI(ep.uri)
		return func() (int, []byte, error) {
			err := c.Do(&req, &resp)
			return resp.StatusCode(), resp.Body(), err
		}, nil
	})
}

// benchNethttp reads each body to EOF (readBody) into a reused buffer, so
// that the Transport reuses the connection.
func benchNethttp(b *testing.B, ep endpoint) {
	tr := &http.Transport{MaxIdleConnsPerHost: 1024, DialContext: ep.dial}
	c := &http.Client{Transport: tr}
	defer tr.CloseIdleConnections()
	runClient(b, ep, nethttpDo(c, ep.uri, 64))
}

// nethttpDo returns a newDo for runClient and runGzip: each clientDo GETs
// uri with c and reads the body to EOF into its own reused buffer of
// bufSize bytes (io.ErrShortBuffer if the body does not fit).
func nethttpDo(c *http.Client, uri string, bufSize int) func() (clientDo, error) {
	return func() (clientDo, error) {
		req, err := http.NewRequest("GET", uri, nil)
		buf := make([]byte, bufSize)
		return func() (int, []byte, error) {
			resp, err := c.Do(req)
			if err != nil {
				return 0, nil, err
			}
			n, err := readBody(resp.Body, buf)
			resp.Body.Close()
			return resp.StatusCode, buf[:n], err
		}, err
	}
}

// replayConn is a client connection to a fake server: every write (one
// whole request) makes the next reads return one canned response. It
// measures the clients alone, without server, pipe or syscalls.
type replayConn struct {
	resp []byte
	left []byte
}

var replayResponse = []byte("HTTP/1.1 200 OK\r\nServer: fasthttp\r\nDate: Mon, 30 Nov 2026 04:00:00 GMT\r\n" +
	"Content-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!")

func (c *replayConn) Write(p []byte) (int, error) { c.left = c.resp; return len(p), nil }

func (c *replayConn) Read(p []byte) (int, error) {
	if len(c.left) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.left)
	c.left = c.left[n:]
	return n, nil
}

func (c *replayConn) Close() error                     { return nil }
func (c *replayConn) LocalAddr() net.Addr              { return fakenet.Addr{} }
func (c *replayConn) RemoteAddr() net.Addr             { return fakenet.Addr{} }
func (c *replayConn) SetDeadline(time.Time) error      { return nil }
func (c *replayConn) SetReadDeadline(time.Time) error  { return nil }
func (c *replayConn) SetWriteDeadline(time.Time) error { return nil }

// BenchmarkClientGetReplay is the client alone: the same GET as
// BenchmarkClientGetEndToEnd, answered by a replayConn.
func BenchmarkClientGetReplay(b *testing.B) {
	ep := endpoint{uri: "http://replay/plaintext", dial: func(context.Context, string, string) (net.Conn, error) {
		return &replayConn{resp: replayResponse}, nil
	}}
	b.Run("brisk", func(b *testing.B) { benchBrisk(b, ep) })
	b.Run("fasthttp", func(b *testing.B) { benchFasthttp(b, ep) })
	// net/http is left out: its background read per connection needs a
	// connection that blocks, not one that reports EOF between responses.
}
