package bench

import (
	"net/url"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/valyala/fasthttp"
)

// argsQuery holds 8 args; BenchmarkArgsParse peeks at the 2nd, 5th and
// 8th, the last of which needs decoding.
const argsQuery = "utm_source=newsletter&id=81273&utm_medium=email&utm_campaign=spring&sort=price&page=2&lang=en&q=caf%C3%A9+au+lait"

var argsPeeks = [3][2]string{{"id", "81273"}, {"sort", "price"}, {"q", "café au lait"}}

// BenchmarkArgsParse measures parsing a query string of 8 args and peeking
// 3 of them:
//   - brisk: Args.Reset then 3 Peeks (lazy: one pass at most);
//   - fasthttp: Args.ParseBytes (decodes all pairs) then 3 Peeks;
//   - nethttp: url.ParseQuery (decodes all into a map) then 3 Gets.
func BenchmarkArgsParse(b *testing.B) {
	raw := []byte(argsQuery)
	b.Run("brisk", func(b *testing.B) {
		var a brisk.Args
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		stop := threadCPUClock(b)
		for b.Loop() {
			a.Reset(raw)
			for _, p := range argsPeeks {
				if string(a.Peek(p[0])) != p[1] {
					b.Fatal(p)
				}
			}
		}
		stop()
	})
	b.Run("fasthttp", func(b *testing.B) {
		var a fasthttp.Args
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		stop := threadCPUClock(b)
		for b.Loop() {
			a.ParseBytes(raw)
			for _, p := range argsPeeks {
				if string(a.Peek(p[0])) != p[1] {
					b.Fatal(p)
				}
			}
		}
		stop()
	})
	b.Run("nethttp", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		stop := threadCPUClock(b)
		for b.Loop() {
			q, err := url.ParseQuery(argsQuery)
			if err != nil {
				b.Fatal(err)
			}
			for _, p := range argsPeeks {
				if q.Get(p[0]) != p[1] {
					b.Fatal(p)
				}
			}
		}
		stop()
	})
}
