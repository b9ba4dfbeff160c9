package h2

import (
	"context"
	"crypto/tls"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/cputime"
	"golang.org/x/net/http2"
)

//lint:file-ignore SA1019 x/net v0.62.0 deprecates its HTTP/2 server and client for net/http's (Go 1.27); this benchmark measures them directly, beside the hand-over

// benchBody is the response of bench/tls.sh's servers.
var benchBody = []byte("Hello, World!")

func benchHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header()["Content-Type"] = []string{"text/plain"}
	w.Write(benchBody)
}

func benchBrisk(c *brisk.Ctx) {
	c.Response.Header.Set("Content-Type", "text/plain")
	c.Response.SetBody(benchBody)
}

// BenchmarkServerH2 measures one HTTP/2 GET (h2c prior knowledge over
// loopback, x/net/http2's client, many streams on one connection) served
// by: bridge, brisk's own handler through Configure's bridge; http,
// brisk with an http.Handler (x/net/http2's own cost); xnet, the same
// http.Handler on x/net/http2's Server alone, without brisk (http against
// xnet is the hand-over's cost); nethttp, net/http.Server with the same
// http.Handler (its bundled copy of x/net/http2). bridge against nethttp
// is the adaptor's cost (issue 19 asks for it within 10 %). On a shared
// machine compare cpu-ns/op (the process's CPU time, client included),
// not ns/op.
func BenchmarkServerH2(b *testing.B) {
	b.Run("bridge", func(b *testing.B) {
		benchH2(b, briskH2(b, Config{}))
	})
	b.Run("http", func(b *testing.B) {
		benchH2(b, briskH2(b, Config{Handler: http.HandlerFunc(benchHTTP)}))
	})
	b.Run("xnet", func(b *testing.B) {
		benchH2(b, xnetH2(b, http.HandlerFunc(benchHTTP)))
	})
	b.Run("nethttp", func(b *testing.B) {
		ln := listen(b)
		s := &http.Server{Handler: http.HandlerFunc(benchHTTP), ErrorLog: log.New(io.Discard, "", 0)}
		s.Protocols = new(http.Protocols)
		s.Protocols.SetUnencryptedHTTP2(true)
		go s.Serve(ln)
		b.Cleanup(func() { s.Close() })
		benchH2(b, ln.Addr().String())
	})
}

func listen(b *testing.B) net.Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	return ln
}

// xnetH2 starts an h2c server of x/net/http2 alone for h and returns its
// address: each accepted connection goes to http2.Server.ServeConn.
func xnetH2(b *testing.B, h http.Handler) string {
	ln := listen(b)
	var s http2.Server
	opts := &http2.ServeConnOpts{BaseConfig: &http.Server{ErrorLog: log.New(io.Discard, "", 0)}, Handler: h}
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer nc.Close()
				s.ServeConn(nc, opts)
			}()
		}
	}()
	b.Cleanup(func() { ln.Close() })
	return ln.Addr().String()
}

// briskH2 starts a brisk h2c server with conf and returns its address.
func briskH2(b *testing.B, conf Config) string {
	ln := listen(b)
	srv := &brisk.Server{Handler: benchBrisk, H2C: true, Logger: slog.New(slog.DiscardHandler)}
	if err := Configure(srv, conf); err != nil {
		b.Fatal(err)
	}
	go srv.Serve(ln)
	b.Cleanup(func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // close at once
		srv.Shutdown(ctx)
	})
	return ln.Addr().String()
}

// benchH2 runs GET / on addr in parallel over one h2c connection.
func benchH2(b *testing.B, addr string) {
	tr := &http2.Transport{AllowHTTP: true, DialTLSContext: func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}}
	defer tr.CloseIdleConnections()
	url := "http://" + addr + "/"
	get := func() error {
		req, _ := http.NewRequest("GET", url, nil)
		resp, err := tr.RoundTrip(req)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return err
	}
	if err := get(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetParallelism(8)
	cpu0, cpuOK := cputime.Process()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := get(); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	if cpu1, _ := cputime.Process(); cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}
