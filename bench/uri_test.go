package bench

import (
	"net/url"
	"path"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/valyala/fasthttp"
)

const uriTarget = "/cookies/catalog/item.php?id=81273&sort=price&q=caf%C3%A9+au+lait"

// BenchmarkURIParse measures the same work on one origin-form
// request-target with each library: split path and query, percent-decode
// and normalize the path, and decode every query arg (visiting all pairs):
//   - brisk: URI.Parse, DecodePath into a reused buffer, Args.Reset and a
//     walk of Args.All;
//   - fasthttp: URI.Parse (path decoding and normalizing happen in Path),
//     Path, QueryArgs (which parses all args) and a walk of Args.All;
//   - nethttp: url.ParseRequestURI (decodes the path), path.Clean (the
//     normalization net/http's ServeMux applies), URL.Query (parses all
//     args into a map).
func BenchmarkURIParse(b *testing.B) {
	target := []byte(uriTarget)
	b.Run("brisk", func(b *testing.B) {
		var u brisk.URI
		var args brisk.Args
		method := []byte("GET")
		buf := make([]byte, 0, 128)
		b.SetBytes(int64(len(target)))
		b.ReportAllocs()
		stop := threadCPUClock(b)
		for b.Loop() {
			if err := u.Parse(method, target); err != nil {
				b.Fatal(err)
			}
			p, err := brisk.DecodePath(buf[:0], u.RawPath)
			if err != nil || len(p) != 25 {
				b.Fatalf("path %q, %v", p, err)
			}
			args.Reset(u.Query)
			n := 0
			for range args.All() {
				n++
			}
			if n != 3 {
				b.Fatal(n)
			}
		}
		stop()
	})
	b.Run("fasthttp", func(b *testing.B) {
		var u fasthttp.URI
		host := []byte("example.com")
		b.SetBytes(int64(len(target)))
		b.ReportAllocs()
		stop := threadCPUClock(b)
		for b.Loop() {
			if err := u.Parse(host, target); err != nil {
				b.Fatal(err)
			}
			if p := u.Path(); len(p) != 25 {
				b.Fatalf("path %q", p)
			}
			n := 0
			for range u.QueryArgs().All() {
				n++
			}
			if n != 3 {
				b.Fatal(n)
			}
		}
		stop()
	})
	b.Run("nethttp", func(b *testing.B) {
		b.SetBytes(int64(len(target)))
		b.ReportAllocs()
		stop := threadCPUClock(b)
		for b.Loop() {
			u, err := url.ParseRequestURI(uriTarget)
			if err != nil {
				b.Fatal(err)
			}
			if p := path.Clean(u.Path); len(p) != 25 {
				b.Fatalf("path %q", p)
			}
			if q := u.Query(); len(q) != 3 {
				b.Fatal(len(q))
			}
		}
		stop()
	})
}
