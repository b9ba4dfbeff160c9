package brisk

import (
	"net"
	"testing"
)

// hookedServer is the benchmark server with both hooks set, doing
// nothing: what the hooks themselves cost.
func hookedServer() *Server {
	return &Server{
		Handler:       helloHandler,
		ConnState:     func(net.Conn, ConnState) {},
		OnRequestDone: func(*RequestInfo) {},
	}
}

// BenchmarkServerGetPipelined16Hooks is BenchmarkServerGetPipelined16 with
// both hooks set: the 16 responses still leave in one write (writes/req),
// and one clock read ends their 16 completions.
func BenchmarkServerGetPipelined16Hooks(b *testing.B) {
	benchmarkServerWith(b, hookedServer(), fixture(b, "tfb.http"), 10000, 16)
}
