package h3

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/h2"
	"github.com/quic-go/quic-go/http3"
)

// benchBody is the response body of the benchmarks: 1 KiB.
var benchBody = make([]byte, 1<<10)

// BenchmarkGet measures GETs of a 1 KiB body on loopback, 32 requests in
// flight, over: brisk's handler on HTTP/3 (this package), a plain
// http.Handler on quic-go's http3.Server (the hand-over's overhead is
// the ratio of the two), and brisk over h2 and HTTP/1.1 on TLS. bench/h3.sh
// runs it interleaved.
func BenchmarkGet(b *testing.B) {
	certs := brisktest.NewTLSCerts()
	briskHandler := func(c *brisk.Ctx) { c.Response.SetBody(benchBody) }
	run := func(b *testing.B, client *http.Client, url string) {
		b.SetParallelism(16) // 16 × GOMAXPROCS goroutines
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				resp, err := client.Get(url)
				if err != nil {
					b.Error(err)
					return
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if n != int64(len(benchBody)) {
					b.Errorf("read %d bytes", n)
					return
				}
			}
		})
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))

	b.Run("brisk-h3", func(b *testing.B) {
		srv := &brisk.Server{Handler: briskHandler, TLSConfig: certs.ServerConfig(), Logger: quiet}
		s3, err := Configure(srv, Config{})
		if err != nil {
			b.Fatal(err)
		}
		pc := listenUDP(b)
		go s3.Serve(pc)
		defer srv.Shutdown(context.Background())
		tr := &http3.Transport{TLSClientConfig: certs.ClientConfig()}
		defer tr.Close()
		run(b, &http.Client{Transport: tr}, "https://"+pc.LocalAddr().String()+"/")
	})
	b.Run("quic-go-h3", func(b *testing.B) {
		s := &http3.Server{TLSConfig: certs.ServerConfig(), Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "1024")
			w.Write(benchBody)
		})}
		pc := listenUDP(b)
		go s.Serve(pc)
		defer s.Close()
		tr := &http3.Transport{TLSClientConfig: certs.ClientConfig()}
		defer tr.Close()
		run(b, &http.Client{Transport: tr}, "https://"+pc.LocalAddr().String()+"/")
	})
	for _, proto := range []string{"h2", "http/1.1"} {
		b.Run("brisk-"+map[string]string{"h2": "h2", "http/1.1": "h1"}[proto], func(b *testing.B) {
			srv := &brisk.Server{Handler: briskHandler, TLSConfig: certs.ServerConfig(), Logger: quiet}
			if err := h2.Configure(srv, h2.Config{}); err != nil {
				b.Fatal(err)
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			go srv.ServeTLS(ln, "", "")
			defer srv.Shutdown(context.Background())
			var protos http.Protocols
			if proto == "h2" {
				protos.SetHTTP2(true)
			} else {
				protos.SetHTTP1(true)
			}
			tr := &http.Transport{TLSClientConfig: certs.ClientConfig(), Protocols: &protos, MaxIdleConnsPerHost: 64}
			defer tr.CloseIdleConnections()
			run(b, &http.Client{Transport: tr}, "https://"+ln.Addr().String()+"/")
		})
	}
}

func listenUDP(b *testing.B) net.PacketConn {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { pc.Close() })
	return pc
}
