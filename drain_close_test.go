package brisk

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDrainIdleRace: Drain with no delay does not close a keep-alive
// connection whose client has been quiet for less than DrainIdleQuiet: a
// request sent on it after Drain began is answered, with
// "Connection: close", then the connection closes. A connection quiet
// for longer is closed, and Drain returns.
func TestDrainIdleRace(t *testing.T) {
	forTransports(t, testDrainIdleRace)
}

func testDrainIdleRace(t *testing.T, transport string) {
	for _, park := range []bool{false, true} {
		s := &Server{Handler: helloHandler, DrainDelay: -1, IdleTimeout: time.Minute,
			NoParkIdle: !park, ParkIdleAfter: time.Millisecond}
		ts := startServer(t, transport, s)
		busy, quiet := ts.connect(), ts.connect()
		busy.roundTrip(get("/"))
		quiet.roundTrip(get("/"))
		time.Sleep(20 * time.Millisecond) // parked, unless NoParkIdle
		drained := make(chan error, 1)
		start := time.Now()
		go func() { drained <- s.Drain(context.Background()) }()
		time.Sleep(100 * time.Millisecond) // Drain runs; far below DrainIdleQuiet
		resp, body := busy.roundTrip(get("/"))
		if resp.StatusCode != 200 || body != "Hello, World!" || !resp.Close {
			t.Fatalf("parking %v: request on an idle connection while draining: %d %q close=%v",
				park, resp.StatusCode, body, resp.Close)
		}
		busy.expectClosed()
		select {
		case err := <-drained:
			if d := time.Since(start); err != nil || d < DrainIdleQuiet {
				t.Fatalf("parking %v: Drain = %v after %v, want nil after at least %v", park, err, d, DrainIdleQuiet)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("parking %v: Drain did not close the quiet connection", park)
		}
		quiet.expectClosed()
	}
}

// TestDrainStreamedAndFile: every response whose head is sent after
// Drain says "Connection: close" (streamed, sendfile, buffered); a
// streamed response whose head went out before Drain keeps its
// connection open once it ends, and the next response on it closes it.
func TestDrainStreamedAndFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	content := strings.Repeat("0123456789abcdef", 64<<10) // 1 MiB: sendfile, not the buffer
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	s := &Server{DrainDelay: time.Hour}
	s.Handler = func(c *Ctx) {
		switch string(c.Request.Path()) {
		case "/stream":
			w := c.BodyWriter()
			io.WriteString(w, "first\n")
			w.Flush()
			<-release
			io.WriteString(w, "last\n")
		case "/file":
			f, err := os.Open(file)
			if err != nil {
				c.Response.SetStatusCode(500)
				return
			}
			defer f.Close()
			c.Response.Header.Set("Content-Length", "1048576")
			io.Copy(c.BodyWriter(), f)
		default:
			helloHandler(c)
		}
	}
	ts := startServer(t, "tcp", s)
	early := ts.connect()
	early.send(get("/stream"))
	time.Sleep(50 * time.Millisecond) // the head is out
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	drained := make(chan error, 1)
	go func() { drained <- s.Drain(ctx) }()
	time.Sleep(50 * time.Millisecond)
	close(release)
	resp, body := early.read("GET")
	if resp.Close || body != "first\nlast\n" {
		t.Fatalf("stream begun before Drain: close=%v body %q, want keep-alive", resp.Close, body)
	}
	if resp, _ := early.roundTrip(get("/")); !resp.Close {
		t.Fatal("the next response on its connection does not close it")
	}
	early.expectClosed()

	for _, path := range []string{"/stream", "/file", "/"} {
		c := ts.connect()
		resp, body := c.roundTrip(get(path))
		if !resp.Close || resp.StatusCode != 200 {
			t.Fatalf("%s begun after Drain: %d close=%v %v", path, resp.StatusCode, resp.Close, resp.Header)
		}
		if path == "/file" && body != content {
			t.Fatalf("/file: %d bytes, want %d", len(body), len(content))
		}
		c.expectClosed()
	}
	cancel()
	<-drained
}
