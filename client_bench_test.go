package brisk

import (
	"testing"
)

// benchmarkClientGet sends keep-alive GETs from parallelism×GOMAXPROCS
// goroutines (b.SetParallelism, as fasthttp's twins do) to a brisk Server
// answering "Hello, World!", over TCP loopback or the in-memory listener.
func benchmarkClientGet(b *testing.B, transport string, parallelism int) {
	cs := startClientServer(b, transport, helloHandler)
	uri := cs.url + "/hello"
	b.SetParallelism(parallelism)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var req Request
		var resp Response
		req.SetURI(uri)
		for pb.Next() {
			if err := cs.cl.Do(&req, &resp); err != nil {
				b.Error(err)
				return
			}
			if len(resp.Body()) != 13 {
				b.Errorf("body %q", resp.Body())
				return
			}
		}
	})
}

func BenchmarkClientGetEndToEnd1TCP(b *testing.B)        { benchmarkClientGet(b, "tcp", 1) }
func BenchmarkClientGetEndToEnd10TCP(b *testing.B)       { benchmarkClientGet(b, "tcp", 10) }
func BenchmarkClientGetEndToEnd100TCP(b *testing.B)      { benchmarkClientGet(b, "tcp", 100) }
func BenchmarkClientGetEndToEnd1Inmemory(b *testing.B)   { benchmarkClientGet(b, "inmemory", 1) }
func BenchmarkClientGetEndToEnd10Inmemory(b *testing.B)  { benchmarkClientGet(b, "inmemory", 10) }
func BenchmarkClientGetEndToEnd100Inmemory(b *testing.B) { benchmarkClientGet(b, "inmemory", 100) }
