//go:build !race

package brisk

import (
	"context"
	"io"
	"log/slog"
	"net"
	"runtime"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
)

// stepServer serves a stepConn with helloHandler (or h) and returns a
// function that runs one request/response exchange.
func stepServer(t *testing.T, req []byte, h Handler) func() int {
	t.Helper()
	ln := fakenet.NewListener()
	s := &Server{Handler: h, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	go s.Serve(ln)
	c := newStepConn(req)
	ln.Push(c)
	t.Cleanup(func() {
		close(c.done)
		s.Shutdown(context.Background())
	})
	return func() int {
		c.in <- struct{}{}
		return <-c.out
	}
}

func TestAllocsPerRequest(t *testing.T) {
	readBody := func(c *Ctx) {
		b, err := c.Request.Body()
		if err != nil || len(b) != 54 {
			panic("body")
		}
		helloHandler(c)
	}
	copyBody := func(c *Ctx) { // through the body's WriteTo and its pooled buffer
		if n, err := io.Copy(io.Discard, c.Request.BodyReader()); err != nil || n != 54 {
			panic("body")
		}
		helloHandler(c)
	}
	cases := []struct {
		name    string
		fixture string
		handler Handler
	}{
		{"get_tfb", "tfb.http", helloHandler},
		{"get_browser", "browser.http", helloHandler},
		{"post_54_byte_body", "post.http", readBody},
		{"post_body_unread", "post.http", helloHandler},
		{"post_body_copied", "post.http", copyBody},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			step := stepServer(t, fixture(t, tc.fixture), tc.handler)
			// The first response is written when the server waits for the
			// second request: prime two.
			step()
			step()
			if n := testing.AllocsPerRun(200, func() { step() }); n != 0 {
				t.Fatalf("%v allocs per request, want 0", n)
			}
		})
	}
}

// TestAllocsPerRequestTCP measures a keep-alive GET over loopback TCP,
// including the idle wait that returns the buffers to the pools, with
// the defaults: client-close cancellation is on, and a handler that
// never asks for the context pays nothing for it.
func TestAllocsPerRequestTCP(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: helloHandler})
	nc, err := ts.dial()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	req := fixture(t, "tfb.http")
	buf := make([]byte, 4096)
	want := 0
	exchange := func() {
		if _, err := nc.Write(req); err != nil {
			t.Fatal(err)
		}
		got := 0
		for got == 0 || got < want {
			n, err := nc.Read(buf[got:])
			if err != nil {
				t.Fatal(err)
			}
			got += n
			if want == 0 {
				want = got // the first response arrives in one read
			}
		}
	}
	exchange()
	exchange()
	if n := testing.AllocsPerRun(200, exchange); n != 0 {
		t.Fatalf("%v allocs per request, want 0", n)
	}
	_ = net.ErrClosed
}

// TestIdleConnHoldsNoBuffers checks that a keep-alive connection waiting
// for its next request over TCP has given its buffers back.
func TestIdleConnHoldsNoBuffers(t *testing.T) {
	s := &Server{Handler: helloHandler}
	ts := startServer(t, "tcp", s)
	c := ts.connect()
	c.roundTrip(get("/"))
	for range 100 { // the server reaches its idle wait shortly after writing
		if idleWithoutBuffers(s) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("idle connection still holds a buffer")
}

func idleWithoutBuffers(s *Server) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		if st := c.state.Load(); st != stateIdle && st != stateIdleBlind || c.rbuf != nil || c.wbuf != nil {
			return false
		}
	}
	return len(s.conns) == 1
}

// TestIdleMemoryPerConn reports the heap and stack held per idle
// keep-alive connection (server and client side in one process, so it is
// an upper bound for the server). Run with -v; skipped in -short.
func TestIdleMemoryPerConn(t *testing.T) {
	if testing.Short() {
		t.Skip("opens many connections")
	}
	const n = 500
	ts := startServer(t, "tcp", &Server{Handler: helloHandler})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	conns := make([]net.Conn, 0, n)
	buf := make([]byte, 512)
	for range n {
		nc, err := ts.dial()
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, nc)
		nc.Write([]byte(get("/")))
		nc.Read(buf)
	}
	time.Sleep(100 * time.Millisecond)
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := float64(after.HeapInuse-before.HeapInuse) / n
	stack := float64(after.StackInuse-before.StackInuse) / n
	t.Logf("per idle connection (server + client objects): heap %.0f B, stacks %.0f B", heap, stack)
	for _, nc := range conns {
		nc.Close()
	}
}
