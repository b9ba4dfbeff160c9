package brisk

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
)

// tcpPeer gives a fake connection a loopback TCP peer address, which
// ProxyProtocol.Trusted can match.
type tcpPeer struct{ *fakenet.Conn }

var benchPeer = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000}

func (tcpPeer) RemoteAddr() net.Addr { return benchPeer }

// benchmarkAccept serves b.N connections of one request each, every one
// beginning with prefix, the way BenchmarkServerGet1ReqPerConn does.
func benchmarkAccept(b *testing.B, pp *ProxyProtocol, prefix string) {
	ln := fakenet.NewListener()
	s := &Server{Handler: helloHandler, ProxyProtocol: pp, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	go s.Serve(ln)
	req := append([]byte(prefix), fixture(b, "tfb.http")...)
	b.SetBytes(int64(len(req)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		c := fakenet.NewConn(req, len(req), 1)
		ln.Push(tcpPeer{c})
		<-c.Done()
	}
	b.StopTimer()
	s.Shutdown(context.Background())
}

// BenchmarkServerAcceptProxyV2 is the accept-path cost of PROXY v2: one
// request per connection, with and without the header.
func BenchmarkServerAcceptProxyV2(b *testing.B) {
	b.Run("no_proxy", func(b *testing.B) { benchmarkAccept(b, nil, "") })
	b.Run("proxy_v2", func(b *testing.B) { benchmarkAccept(b, loopbackOnly(), proxyV2(nil)) })
	b.Run("proxy_v1", func(b *testing.B) {
		benchmarkAccept(b, loopbackOnly(), "PROXY TCP4 203.0.113.7 198.51.100.1 4242 443\r\n")
	})
}
