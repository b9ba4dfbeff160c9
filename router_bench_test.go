package brisk

import (
	"strings"
	"testing"
)

// BenchmarkRouterServed measures Router.Serve on a Ctx whose request is
// prepared as the server prepares it (target split and path decoded
// once, before the handler), over the route tables of testdata/routes:
// one op is every route of the table requested once, its path as
// written. bench/router_test.go compares with other routers, on the
// Ctxs a Server hands its handler.
func BenchmarkRouterServed(b *testing.B) {
	for _, table := range []string{"github.txt", "gplus.txt", "parse.txt", "static.txt"} {
		b.Run(strings.TrimSuffix(table, ".txt"), func(b *testing.B) {
			r := NewRouter()
			var targets []string
			for _, p := range readRouteFile(b, table) {
				r.Handle(p, func(*Ctx) {})
				targets = append(targets, strings.ReplaceAll(strings.ReplaceAll(p, "{", ":"), "}", ""))
			}
			ctxs := make([]Ctx, len(targets))
			for i, tg := range targets {
				c := &ctxs[i]
				m, path, _ := strings.Cut(tg, " ")
				c.Request.SetMethod(m)
				c.Request.SetTarget(path)
				c.Request.recv = &bodyReader{} // server side: Path is computed once, below
				if err := c.Request.splitTarget(); err != nil {
					b.Fatal(err)
				}
				r.Serve(c)
				if c.Pattern() == "" {
					b.Fatalf("%s not routed", tg)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				for i := range ctxs {
					r.Serve(&ctxs[i])
				}
			}
		})
	}
}
