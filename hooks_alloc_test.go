//go:build !race

package brisk

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"

	"github.com/brisk-http/brisk/internal/fakenet"
)

// TestAllocsPerRequestHooks: the hooks add no allocation per request,
// set or not (unset is TestAllocsPerRequest).
func TestAllocsPerRequestHooks(t *testing.T) {
	var states, done int
	s := &Server{
		Handler:       func(c *Ctx) { c.SetRoute("/hello"); helloHandler(c) },
		Logger:        slog.New(slog.NewTextHandler(io.Discard, nil)),
		ConnState:     func(net.Conn, ConnState) { states++ },
		OnRequestDone: func(in *RequestInfo) { done += in.Status },
	}
	ln := fakenet.NewListener()
	go s.Serve(ln)
	c := newStepConn(fixture(t, "tfb.http"))
	ln.Push(c)
	defer func() {
		close(c.done)
		s.Shutdown(context.Background())
	}()
	step := func() {
		c.in <- struct{}{}
		<-c.out
	}
	step()
	step()
	if n := testing.AllocsPerRun(200, step); n != 0 {
		t.Fatalf("%v allocs per request with hooks, want 0", n)
	}
}
