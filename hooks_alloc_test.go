//go:build !race

package brisk

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"slices"
	"strings"
	"testing"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
)

// TestAllocsPerRequestHooks: the hooks add no allocation per request,
// set or not (unset is TestAllocsPerRequest).
func TestAllocsPerRequestHooks(t *testing.T) {
	testAllocsHooks(t, fixture(t, "tfb.http"), 1)
}

// TestAllocsPipelinedHooks: nor for pipelined requests, whose methods and
// targets are copied for their delayed calls, one of them too long to be
// (delivered at once).
func TestAllocsPipelinedHooks(t *testing.T) {
	req := fixture(t, "tfb.http")
	long := []byte("GET /" + strings.Repeat("l", maxPendingText) + " HTTP/1.1\r\nHost: x\r\n\r\n")
	testAllocsHooks(t, slices.Concat(bytes.Repeat(req, 8), long, bytes.Repeat(req, 8)), 2)
}

// testAllocsHooks fails unless serving script, one read of requests
// answered in the given number of writes, with both hooks set allocates
// nothing.
func testAllocsHooks(t *testing.T, script []byte, writes int) {
	var states, done int
	s := &Server{
		Handler:        func(c *Ctx) { c.SetRoute("/hello"); helloHandler(c) },
		Logger:         slog.New(slog.NewTextHandler(io.Discard, nil)),
		ConnState:      func(net.Conn, ConnState) { states++ },
		OnRequestDone:  func(in *RequestInfo) { done += in.Status + len(in.Target) + len(in.RemoteAddr.String()) },
		ReadBufferSize: 2 * len(script), // one read takes it all
	}
	ln := fakenet.NewListener()
	go s.Serve(ln)
	c := newStepConn(script)
	ln.Push(c)
	defer func() {
		close(c.done)
		s.Shutdown(context.Background())
	}()
	step := func() {
		c.in <- struct{}{}
		for range writes {
			<-c.out
		}
	}
	step()
	step()
	if n := testing.AllocsPerRun(200, step); n != 0 {
		t.Fatalf("%v allocs per read of %d bytes with hooks, want 0", n, len(script))
	}
}
