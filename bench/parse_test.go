package bench

import (
	"bufio"
	"bytes"
	"net/http"
	"os"
	"testing"

	"github.com/brisk-http/brisk/wire"
	"github.com/valyala/fasthttp"
)

// fixtures are the request heads of ../wire/testdata, parsed by every
// implementation: browser (718 bytes, 14 fields), tfb (161 bytes) and post
// (195 bytes: a head with Content-Length: 54 and its body, which no
// implementation reads here).
var fixtures = []string{"browser", "tfb", "post"}

// impls names the implementations; it is the sub-benchmark level that
// compare.sh turns into the benchstat key impl=.
var impls = []string{"brisk", "fasthttp", "nethttp"}

// readFixture returns the bytes of ../wire/testdata/name.http.
func readFixture(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile("../wire/testdata/" + name + ".http")
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// wantContentLength is each fixture's Content-Length; -1 when absent.
var wantContentLength = map[string]int64{"browser": -1, "tfb": -1, "post": 54}

// BenchmarkParse parses one request head per op. Each implementation reads
// the same bytes and keeps its state across ops, as a server does per
// connection:
//   - brisk: wire.Parser.ParseRequest into a reused RequestHead and field
//     storage, the full strict parse with framing decided (Framing);
//   - fasthttp: RequestHeader.Read from a bufio.Reader Reset over a
//     bytes.Reader on the bytes (the head only);
//   - nethttp: http.ReadRequest from a bufio.Reader reused the same way
//     (the body, if any, is not read).
//
// Besides ns/op each reports cpu-ns/op, the CPU time of its thread per op,
// steadier than wall time on a shared machine.
func BenchmarkParse(b *testing.B) {
	parsers := map[string]func(b *testing.B, buf []byte, wantCL int64){
		"brisk":    parseBrisk,
		"fasthttp": parseFasthttp,
		"nethttp":  parseNethttp,
	}
	for _, impl := range impls {
		b.Run(impl, func(b *testing.B) {
			for _, name := range fixtures {
				buf := readFixture(b, name)
				b.Run(name, func(b *testing.B) {
					b.SetBytes(int64(len(buf)))
					b.ReportAllocs()
					stop := threadCPUClock(b)
					parsers[impl](b, buf, wantContentLength[name])
					stop()
				})
			}
		})
	}
}

func parseBrisk(b *testing.B, buf []byte, wantCL int64) {
	var p wire.Parser
	var h wire.RequestHead
	storage := make([]wire.Field, 64)
	var framing wire.Framing
	for b.Loop() {
		h.Reset(storage)
		if _, err := p.ParseRequest(buf, &h); err != nil {
			b.Fatal(err)
		}
		framing = h.Framing()
	}
	if want := wire.FramingNone; wantCL >= 0 {
		want = wire.FramingLength
		if framing != want || h.ContentLength != wantCL {
			b.Fatalf("framing %v, Content-Length %d; want %v, %d", framing, h.ContentLength, want, wantCL)
		}
	} else if framing != want {
		b.Fatalf("framing %v, want %v", framing, want)
	}
}

func parseFasthttp(b *testing.B, buf []byte, wantCL int64) {
	var h fasthttp.RequestHeader
	r := bytes.NewReader(buf)
	br := bufio.NewReader(r)
	for b.Loop() {
		r.Reset(buf)
		br.Reset(r)
		if err := h.Read(br); err != nil {
			b.Fatal(err)
		}
	}
	// fasthttp reports a request without a body as -2 (identity).
	if cl := int64(h.ContentLength()); wantCL >= 0 && cl != wantCL || wantCL < 0 && cl != -2 {
		b.Fatalf("Content-Length %d, want %d", cl, wantCL)
	}
}

func parseNethttp(b *testing.B, buf []byte, wantCL int64) {
	r := bytes.NewReader(buf)
	br := bufio.NewReader(r)
	var req *http.Request
	for b.Loop() {
		r.Reset(buf)
		br.Reset(r)
		var err error
		if req, err = http.ReadRequest(br); err != nil {
			b.Fatal(err)
		}
	}
	if cl := req.ContentLength; wantCL >= 0 && cl != wantCL || wantCL < 0 && cl != 0 {
		b.Fatalf("Content-Length %d, want %d", cl, wantCL)
	}
}
