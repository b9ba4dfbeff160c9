package bench

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"
)

// The client twins: brisk.Client, fasthttp.Client and net/http's Client
// send the same keep-alive GET to the same server, a fasthttp.Server
// answering 200 "Hello, World!" (a neutral server: none of the clients
// is measured against its own). Over tcp the server listens on loopback;
// over inmemory each client dials its library's in-memory listener (brisk
// and fasthttp; net/http, which has none, dials fasthttputil's), served by
// the same fasthttp.Server. Requests come from GOMAXPROCS goroutines
// (b.RunParallel); allocations count client and server.

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
// transports, the dial function.
type endpoint struct {
	uri  string
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
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
	ln := brisk.NewInmemoryListener()
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
}

// BenchmarkClientGetEndToEndSameListener runs brisk's client over
// fasthttputil's in-memory listener, to separate the client from the
// pipe implementation in the inmemory comparison.
func BenchmarkClientGetEndToEndSameListener(b *testing.B) {
	b.Run("brisk/fasthttputil", func(b *testing.B) { benchBrisk(b, fasthttpInmemory(b)) })
}

func benchBrisk(b *testing.B, ep endpoint) {
	c := &brisk.Client{ClientConfig: brisk.ClientConfig{Dial: ep.dial}}
	defer c.CloseIdleConnections()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var req brisk.Request
		var resp brisk.Response
		req.SetURI(ep.uri)
		for pb.Next() {
			if err := c.Do(&req, &resp); err != nil {
				b.Error(err)
				return
			}
			if resp.StatusCode() != 200 || len(resp.Body()) != len(clientHelloBody) {
				b.Errorf("%d %q", resp.StatusCode(), resp.Body())
				return
			}
		}
	})
}

func benchFasthttp(b *testing.B, ep endpoint) {
	c := &fasthttp.Client{}
	if ep.dial != nil {
		c.Dial = func(addr string) (net.Conn, error) { return ep.dial(context.Background(), "tcp", addr) }
	}
	defer c.CloseIdleConnections()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var req fasthttp.Request
		var resp fasthttp.Response
		req.SetRequestURI(ep.uri)
		for pb.Next() {
			if err := c.Do(&req, &resp); err != nil {
				b.Error(err)
				return
			}
			if resp.StatusCode() != 200 || len(resp.Body()) != len(clientHelloBody) {
				b.Errorf("%d %q", resp.StatusCode(), resp.Body())
				return
			}
		}
	})
}

func benchNethttp(b *testing.B, ep endpoint) {
	tr := &http.Transport{MaxIdleConnsPerHost: 1024, DialContext: ep.dial}
	c := &http.Client{Transport: tr}
	defer tr.CloseIdleConnections()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		req, err := http.NewRequest("GET", ep.uri, nil)
		if err != nil {
			b.Error(err)
			return
		}
		buf := make([]byte, 64)
		for pb.Next() {
			resp, err := c.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			n, _ := io.ReadFull(resp.Body, buf[:len(clientHelloBody)])
			resp.Body.Close()
			if resp.StatusCode != 200 || n != len(clientHelloBody) {
				b.Errorf("%d %q", resp.StatusCode, buf[:n])
				return
			}
		}
	})
}
