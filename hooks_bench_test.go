package brisk

import (
	"context"
	"net"
	"testing"

	"github.com/brisk-http/brisk/internal/testsupport/cputime"
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

// BenchmarkServerGetLoopbackHooks sends keep-alive GETs from one brisk
// client to a brisk Server over TCP loopback, hooks=off and hooks=on:
// the hooks' cost next to the system calls of a real connection. Beside
// ns/op it reports cpu-ns/op, the process's user and system CPU time per
// request (client included), steadier than wall time on a busy machine.
func BenchmarkServerGetLoopbackHooks(b *testing.B) {
	b.Run("hooks=off", func(b *testing.B) { benchmarkLoopback(b, &Server{Handler: helloHandler}) })
	b.Run("hooks=on", func(b *testing.B) { benchmarkLoopback(b, hookedServer()) })
}

func benchmarkLoopback(b *testing.B, s *Server) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go s.Serve(ln)
	defer s.Shutdown(context.Background())
	hc := &HostClient{Addr: ln.Addr().String()}
	defer hc.CloseIdleConnections()
	var req Request
	var resp Response
	req.SetTarget("/")
	b.ReportAllocs()
	cpu0, cpuOK := cputime.Process()
	b.ResetTimer()
	for range b.N {
		if err := hc.Do(&req, &resp); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if cpu1, _ := cputime.Process(); cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}
