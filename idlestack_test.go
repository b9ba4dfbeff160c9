//go:build !race

package brisk

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// TestIdleConnStack bounds the goroutine stack an idle keep-alive
// connection holds after a request whose handler is shallow: its first 2
// KiB. A path of the connection loop deeper than that (the flush of a
// response and its write deadline, the read deadline, the wait) grows
// the stack to 4 KiB once, and the runtime never shrinks the stack of a
// goroutine blocked that deep: 2 KiB more per idle connection, for
// good. The connections are measured together, by the runtime's stack
// memory in use, in a process of their own: the runtime sizes new
// goroutines' stacks by the average it saw in earlier collections, so
// that what ran before in the test binary would count. The client sets no deadlines on its connections: their
// timers would grow the runtime's timer heaps, whose growth, when a
// server connection sets its own deadline, takes that one past 2 KiB.
func TestIdleConnStack(t *testing.T) {
	if os.Getenv(idleStackChild) != "" {
		fmt.Printf("stack %d\n", idleStackPerConn(t))
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestIdleConnStack$", "-test.count=1")
	cmd.Env = append(os.Environ(), idleStackChild+"=1")
	out, err := cmd.CombinedOutput()
	skipIfNotExecutable(t, err)
	var perConn int
	if _, serr := fmt.Sscanf(string(out), "stack %d", &perConn); err != nil || serr != nil {
		t.Fatalf("child: %v %v: %s", err, serr, out)
	}
	if perConn > 2560 {
		t.Errorf("idle connection stack %d bytes, want 2 KiB (at most 2560)", perConn)
	}
}

// idleStackChild is set in the environment of TestIdleConnStack's child.
const idleStackChild = "BRISK_TEST_IDLE_STACK_CHILD"

// idleStackPerConn opens idle keep-alive connections, one request each,
// and returns the growth of the stack memory in use per connection.
func idleStackPerConn(t *testing.T) int64 {
	const n = 400
	srv := &Server{Handler: func(c *Ctx) {
		c.Response.Header.Set("Content-Type", "text/plain")
		c.Response.SetBodyString("Hello, World!")
	}, IdleTimeout: time.Minute}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	addr := ln.Addr().String()
	request := func() net.Conn {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(nc, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		br := bufio.NewReader(nc)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if line == "\r\n" {
				break
			}
		}
		if _, err := io.ReadFull(br, make([]byte, len("Hello, World!"))); err != nil {
			t.Fatal(err)
		}
		return nc
	}
	// One timer bounds the test: it closes the server, and with it every
	// connection a blocked read of the client waits on.
	stop := time.AfterFunc(20*time.Second, func() { srv.Shutdown(context.Background()) })
	defer stop.Stop()
	for range 20 { // warm: pools, the poller, first-use allocations
		request().Close()
	}
	time.Sleep(50 * time.Millisecond)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	conns := make([]net.Conn, n)
	for i := range conns {
		conns[i] = request()
	}
	defer func() {
		for _, nc := range conns {
			nc.Close()
		}
	}()
	time.Sleep(100 * time.Millisecond) // each connection back to its wait
	runtime.GC()
	runtime.ReadMemStats(&after)
	return (int64(after.StackInuse) - int64(before.StackInuse)) / n
}
