package router

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// BenchmarkRouterServed measures Router.Serve on a Ctx whose request is
// prepared as the server prepares it (target split and path decoded
// once, before the handler), over the route tables of testdata/routes:
// one op is every route of the table requested once, its path as
// written. bench/router_test.go compares with other routers, on the
// same Ctxs.
func BenchmarkRouterServed(b *testing.B) {
	for _, table := range []string{"github.txt", "gplus.txt", "parse.txt", "static.txt"} {
		b.Run(strings.TrimSuffix(table, ".txt"), func(b *testing.B) {
			r := New()
			var targets []string
			for _, p := range readRouteFile(b, table) {
				r.Handle(p, func(*brisk.Ctx) {})
				targets = append(targets, strings.ReplaceAll(strings.ReplaceAll(p, "{", ":"), "}", ""))
			}
			ctxs := receivedCtxs(b, targets)
			for i, c := range ctxs {
				r.Serve(c)
				if c.Pattern() == "" {
					b.Fatalf("%s not routed", targets[i])
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range ctxs {
					r.Serve(c)
				}
			}
		})
	}
}

// receivedCtxs returns the Ctx of each request of reqs ("METHOD path") as
// a brisk Server hands it to its handler: a Server on an in-memory
// listener receives each request on a connection of its own, and its
// handler passes the Ctx on, then waits until the benchmark ends
// (b.Cleanup), so that the Ctx stays valid and the server leaves it
// alone.
func receivedCtxs(b *testing.B, reqs []string) []*brisk.Ctx {
	ln := brisktest.NewListener()
	got, done := make(chan *brisk.Ctx), make(chan struct{})
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) { got <- c; <-done }}
	go srv.Serve(ln)
	ctxs := make([]*brisk.Ctx, len(reqs))
	var conns []net.Conn
	b.Cleanup(func() {
		close(done)
		for _, nc := range conns {
			nc.Close()
		}
		srv.Shutdown(context.Background())
	})
	for i, rq := range reqs {
		nc, err := ln.Dial()
		if err != nil {
			b.Fatal(err)
		}
		conns = append(conns, nc)
		if _, err := io.WriteString(nc, rq+" HTTP/1.1\r\nHost: api.example.com\r\n\r\n"); err != nil {
			b.Fatal(err)
		}
		ctxs[i] = <-got
	}
	return ctxs
}
