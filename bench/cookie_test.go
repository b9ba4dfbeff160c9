package bench

import (
	"net/http"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/valyala/fasthttp"
)

// cookieInputs are the Cookie field values of BenchmarkCookieParse: a
// realistic one, looked up for its last cookie so that every pair is
// passed, and the pathological one of 45 ";" characters.
var cookieInputs = []struct{ name, value, lookup, want string }{
	{"real", "session=4f1c2a9e7b3d8e60; theme=dark; cart=3x81273.1x99120; _ga=GA1.2.1187302112.1732950000; consent=analytics%3Dno", "consent", "analytics%3Dno"},
	{"semicolons", strings.Repeat(";", 45), "consent", ""},
}

// BenchmarkCookieParse measures parsing one Cookie field value and looking
// up one cookie in it:
//   - brisk: CookieValue(value, name), scanning in place;
//   - fasthttp: RequestHeader.SetBytesV("Cookie", value), which parses all
//     pairs into the header's cookie list, then Cookie(name); DelAllCookies
//     empties the list (keeping its storage) before each round;
//   - nethttp: Request.Cookie(name) on a Request whose Header holds the
//     value (net/http parses the field on every call).
func BenchmarkCookieParse(b *testing.B) {
	b.Run("brisk", func(b *testing.B) {
		for _, in := range cookieInputs {
			v := []byte(in.value)
			b.Run(in.name, func(b *testing.B) {
				b.SetBytes(int64(len(v)))
				b.ReportAllocs()
				stop := threadCPUClock(b)
				for b.Loop() {
					if got, _ := brisk.CookieValue(v, in.lookup); string(got) != in.want {
						b.Fatalf("got %q", got)
					}
				}
				stop()
			})
		}
	})
	b.Run("fasthttp", func(b *testing.B) {
		for _, in := range cookieInputs {
			v := []byte(in.value)
			b.Run(in.name, func(b *testing.B) {
				var h fasthttp.RequestHeader
				b.SetBytes(int64(len(v)))
				b.ReportAllocs()
				stop := threadCPUClock(b)
				for b.Loop() {
					h.DelAllCookies()
					h.SetBytesV("Cookie", v)
					if got := h.Cookie(in.lookup); string(got) != in.want {
						b.Fatalf("got %q", got)
					}
				}
				stop()
			})
		}
	})
	b.Run("nethttp", func(b *testing.B) {
		for _, in := range cookieInputs {
			b.Run(in.name, func(b *testing.B) {
				r := http.Request{Header: http.Header{"Cookie": {in.value}}}
				b.SetBytes(int64(len(in.value)))
				b.ReportAllocs()
				stop := threadCPUClock(b)
				for b.Loop() {
					c, err := r.Cookie(in.lookup)
					if (err == nil) != (in.want != "") || err == nil && c.Value != in.want {
						b.Fatalf("got %v, %v", c, err)
					}
				}
				stop()
			})
		}
	})
}
