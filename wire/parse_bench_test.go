package wire

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

var fixtureNames = []string{"browser", "tfb", "post"}

func readFixture(tb testing.TB, name string) []byte {
	tb.Helper()
	buf, err := os.ReadFile("testdata/" + name + ".http")
	if err != nil {
		tb.Fatal(err)
	}
	return buf
}

func BenchmarkParseRequest(b *testing.B) {
	for _, name := range fixtureNames {
		buf := readFixture(b, name)
		b.Run(name, func(b *testing.B) {
			var p Parser
			var h RequestHead
			storage := make([]Field, 64)
			b.SetBytes(int64(len(buf)))
			b.ReportAllocs()
			defer cpuClock(b)()
			for b.Loop() {
				h.Reset(storage)
				if _, err := p.ParseRequest(buf, &h); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseRequestByteByByte feeds the browser head one more byte
// per call, as a slow client would deliver it, and reports the cost of
// the whole head and per call (cpu-ns/call):
//   - resume keeps the head between calls, so the parse goes on where it
//     stopped: the work is linear, and what it costs beyond
//     BenchmarkParseRequest/browser is the fixed cost of a call;
//   - restart resets the head before each call, re-parsing from byte 0 as
//     fasthttp does: quadratic;
//   - floor makes the same calls to a function that only reports
//     ErrNeedMore until the head is complete: the least that one call per
//     byte can cost, whatever the parser.
func BenchmarkParseRequestByteByByte(b *testing.B) {
	buf := readFixture(b, "browser")
	for _, mode := range []string{"resume", "restart", "floor"} {
		b.Run(mode, func(b *testing.B) {
			var p Parser
			var h RequestHead
			storage := make([]Field, 64)
			restart, floor := mode == "restart", mode == "floor"
			b.SetBytes(int64(len(buf)))
			b.ReportAllocs()
			stop := cpuClock(b)
			for b.Loop() {
				h.Reset(storage)
				for k := 1; k <= len(buf); k++ {
					if restart {
						h.Reset(storage)
					}
					var err error
					if floor {
						_, err = needMoreUntil(buf[:k], len(buf))
					} else {
						_, err = p.ParseRequest(buf[:k], &h)
					}
					if err == nil {
						break
					}
					if err != ErrNeedMore {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(stop()/float64(len(buf)), "cpu-ns/call")
		})
	}
}

// needMoreUntil reports ErrNeedMore until in holds n bytes.
//
//go:noinline
func needMoreUntil(in []byte, n int) (int, error) {
	if len(in) < n {
		return 0, ErrNeedMore
	}
	return n, nil
}

// fastPathMix returns 256 heads in random order, pct percent of them
// picked from hits, the rest from misses.
func fastPathMix(pct int, hits, misses []string) [][]byte {
	r := rand.New(rand.NewPCG(1, uint64(pct)))
	mix := make([][]byte, 256)
	for i := range mix {
		if r.IntN(100) < pct {
			mix[i] = []byte(hits[r.IntN(len(hits))])
		} else {
			mix[i] = []byte(misses[r.IntN(len(misses))])
		}
	}
	return mix
}

// BenchmarkLookAhead measures the request-line fast paths (a whole
// "GET / HTTP/1.1" line by two words, a common method by one, the usual
// origin-form HTTP/1.1 end by two) on and off, over mixes with 100, 10, 1 and 0 percent of
// short "GET / HTTP/1.1" heads (the shape of load-test and health-check
// traffic) and the rest requests whose line neither fast path takes whole
// (pct-encoded or absolute-form targets, HTTP/1.0, other methods), so
// that on/0 against off/0 is what a miss costs. The field-line fast path
// stays on in both, so that "off" differs only by the start line.
func BenchmarkLookAhead(b *testing.B) {
	hits := []string{
		"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: server\r\nConnection: keep-alive\r\n\r\n",
	}
	misses := []string{
		"POST /api/orders?note=caf%C3%A9 HTTP/1.1\r\nHost: api.example.org\r\nContent-Type: application/json\r\nContent-Length: 54\r\n\r\n",
		"POST http://example.org/login HTTP/1.1\r\nHost: example.org\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 27\r\n\r\n",
		"PUT /items/7 HTTP/1.0\r\nHost: example.com\r\nContent-Length: 7\r\n\r\n",
		"GET /search?q=a%20b HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n",
		"PROPFIND /items/7 HTTP/1.1\r\nHost: example.com\r\n\r\n",
	}
	benchmarkFastPath(b, hits, misses, Parser{noLookAhead: true}, parseRequestHead)
}

// BenchmarkQuickFields is BenchmarkLookAhead for the field-line fast path
// (fieldLines and quickFields): hits are heads whose field lines all have
// the usual shape; misses have one line of another shape each (an HTAB
// after the colon, two SPs, a line longer than lineChunk), which the
// strict rules parse. The start-line fast paths stay on in both.
func BenchmarkQuickFields(b *testing.B) {
	hits := []string{
		"GET /index.html HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\nUser-Agent: curl/8.5.0\r\n\r\n",
		"POST /api/orders HTTP/1.1\r\nHost: api.example.org\r\nContent-Type: application/json\r\nContent-Length: 54\r\nX-Request-Id: 7f3a9c\r\n\r\n",
	}
	misses := []string{
		strings.Replace(hits[0], "Accept: ", "Accept:\t", 1),
		strings.Replace(hits[1], "Content-Type: ", "Content-Type:  ", 1),
		strings.Replace(hits[0], "Accept: ", "Authorization: Bearer "+strings.Repeat("eyJhbGciOi", 30)+"\r\nAccept: ", 1),
	}
	benchmarkFastPath(b, hits, misses, Parser{noQuickFields: true}, parseRequestHead)
}

// parseRequestHead parses buf as a request head into storage.
func parseRequestHead(p *Parser, buf []byte, storage []Field) error {
	var h RequestHead
	h.Reset(storage)
	_, err := p.ParseRequest(buf, &h)
	return err
}

// BenchmarkLookAheadStatus is BenchmarkLookAhead for the client's
// status-line fast path ("HTTP/1.1 200 OK" by two words): hits are 200 OK
// responses, misses other status codes, reason phrases and versions.
func BenchmarkLookAheadStatus(b *testing.B) {
	hits := []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\nServer: brisk\r\n\r\n",
	}
	misses := []string{
		"HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\n",
		"HTTP/1.1 204 No Content\r\nServer: brisk\r\n\r\n",
		"HTTP/1.1 301 Moved Permanently\r\nLocation: /new\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.0 200 OK\r\nContent-Length: 13\r\n\r\n",
		"HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n",
	}
	benchmarkFastPath(b, hits, misses, Parser{noLookAhead: true}, func(p *Parser, buf []byte, storage []Field) error {
		var h ResponseHead
		h.Reset(storage)
		_, err := p.ParseResponse(buf, &h)
		return err
	})
}

// benchmarkFastPath runs parse over mixes of hits and misses
// (fastPathMix) with a fast path on (the zero Parser) and off (off).
func benchmarkFastPath(b *testing.B, hits, misses []string, off Parser, parse func(p *Parser, buf []byte, storage []Field) error) {
	for _, on := range []bool{true, false} {
		mode := map[bool]string{true: "on", false: "off"}[on]
		for _, pct := range []int{100, 10, 1, 0} {
			mix := fastPathMix(pct, hits, misses)
			total := 0
			for _, m := range mix {
				total += len(m)
			}
			b.Run(fmt.Sprintf("%s/%d", mode, pct), func(b *testing.B) {
				p := Parser{}
				if !on {
					p = off
				}
				storage := make([]Field, 16)
				b.SetBytes(int64(total / len(mix)))
				b.ReportAllocs()
				defer cpuClock(b)()
				i := 0
				for b.Loop() {
					if err := parse(&p, mix[i&255], storage); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}

func BenchmarkParseResponse(b *testing.B) {
	for _, c := range []struct{ name, head string }{
		{"200ok", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\nDate: Mon, 30 Nov 2026 04:00:00 GMT\r\nServer: brisk\r\n\r\n"},
		{"404", "HTTP/1.1 404 Not Found\r\nContent-Type: text/html; charset=utf-8\r\nTransfer-Encoding: chunked\r\nDate: Mon, 30 Nov 2026 04:00:00 GMT\r\n\r\n"},
	} {
		buf := []byte(c.head)
		b.Run(c.name, func(b *testing.B) {
			var p Parser
			var h ResponseHead
			storage := make([]Field, 16)
			b.SetBytes(int64(len(buf)))
			b.ReportAllocs()
			defer cpuClock(b)()
			for b.Loop() {
				h.Reset(storage)
				if _, err := p.ParseResponse(buf, &h); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
