package brisk

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestDrain(t *testing.T) {
	release := make(chan struct{})
	s := &Server{DrainDelay: time.Second} // the idle connection is served meanwhile
	s.Handler = func(c *Ctx) {
		if string(c.Request.Path()) == "/slow" {
			<-release
		}
		if string(c.Request.Path()) == "/readyz" {
			s.ReadinessHandler(c)
			return
		}
		helloHandler(c)
	}
	ts := startServer(t, "tcp", s)
	busy, idle := ts.connect(), ts.connect()
	if resp, body := idle.roundTrip(get("/readyz")); resp.StatusCode != 200 || body != "ready\n" {
		t.Fatalf("before Drain: %d %q", resp.StatusCode, body)
	}
	busy.send(get("/slow"))
	time.Sleep(50 * time.Millisecond) // the handler is running
	drained := make(chan error, 1)
	go func() { drained <- s.Drain(context.Background()) }()
	time.Sleep(50 * time.Millisecond)

	// Still serving, on old and new connections, each response closing.
	fresh := ts.connect()
	for name, c := range map[string]*client{"idle": idle, "new": fresh} {
		resp, body := c.roundTrip(get("/readyz"))
		if resp.StatusCode != 503 || body != "draining\n" || !resp.Close {
			t.Fatalf("%s connection while draining: %d %q close=%v", name, resp.StatusCode, body, resp.Close)
		}
		c.expectClosed()
	}
	select {
	case err := <-drained:
		t.Fatalf("Drain returned %v with a request in flight", err)
	default:
	}
	close(release)
	resp, _ := busy.read("GET")
	if !resp.Close { // net/http removes the field when it sets Close
		t.Fatalf("in-flight response without Connection: close: %v", resp.Header)
	}
	select {
	case err := <-drained:
		if err != nil {
			t.Fatalf("Drain: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Drain did not return after the last connection closed")
	}
}

func TestDrainDeadline(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := &Server{Handler: func(c *Ctx) { <-release }}
	ts := startServer(t, "tcp", s)
	ts.connect().send(get("/"))
	time.Sleep(50 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := s.Drain(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Drain = %v, want context.DeadlineExceeded", err)
	}
}

// TestDrainDelay: with no connection at all, Drain serves for DrainDelay,
// readiness answering 503, before it shuts down; its context ends it
// earlier.
func TestDrainDelay(t *testing.T) {
	const delay = 300 * time.Millisecond
	s := &Server{DrainDelay: delay}
	s.Handler = s.ReadinessHandler
	ts := startServer(t, "tcp", s)
	start := time.Now()
	drained := make(chan error, 1)
	go func() { drained <- s.Drain(context.Background()) }()
	time.Sleep(50 * time.Millisecond)
	c := ts.connect() // still accepting
	if resp, body := c.roundTrip(get("/readyz")); resp.StatusCode != 503 || body != "draining\n" {
		t.Fatalf("during the delay: %d %q", resp.StatusCode, body)
	}
	c.expectClosed()
	select {
	case err := <-drained:
		if d := time.Since(start); err != nil || d < delay {
			t.Fatalf("Drain = %v after %v, want nil after %v", err, d, delay)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Drain did not return after its delay")
	}

	s2 := &Server{DrainDelay: time.Hour, Handler: helloHandler}
	startServer(t, "tcp", s2)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start = time.Now()
	s2.Drain(ctx)
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("Drain with a 100ms context returned after %v", d)
	}
}

func TestDrainDelayResolved(t *testing.T) {
	for set, want := range map[time.Duration]time.Duration{0: DefaultDrainDelay, -1: 0, time.Second: time.Second} {
		if got := (&Server{DrainDelay: set}).drainDelay(); got != want {
			t.Errorf("DrainDelay %v: %v, want %v", set, got, want)
		}
	}
}

// TestDrainIdleConns: a keep-alive connection that sends nothing more
// does not hold Drain long past DrainDelay: it is closed once quiet for
// DrainIdleQuiet, and Drain returns nil, well before IdleTimeout or its
// context.
func TestDrainIdleConns(t *testing.T) {
	for _, park := range []bool{false, true} {
		s := &Server{Handler: helloHandler, DrainDelay: 100 * time.Millisecond, IdleTimeout: time.Minute,
			NoParkIdle: !park, ParkIdleAfter: time.Millisecond}
		ts := startServer(t, "tcp", s)
		idle := ts.connect()
		idle.roundTrip(get("/"))
		time.Sleep(20 * time.Millisecond) // parked, unless NoParkIdle
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		start := time.Now()
		err := s.Drain(ctx)
		cancel()
		if d := time.Since(start); err != nil || d > 2*time.Second+DrainIdleQuiet {
			t.Fatalf("parking %v: Drain = %v after %v, want nil after about DrainIdleQuiet", park, err, d)
		}
		idle.expectClosed()
	}
}

// TestDrainNewConnAfterDelay: a connection accepted after DrainDelay,
// while a busy one holds Drain, is served (with Connection: close), not
// closed before its request comes.
func TestDrainNewConnAfterDelay(t *testing.T) {
	release := make(chan struct{})
	s := &Server{DrainDelay: 50 * time.Millisecond}
	s.Handler = func(c *Ctx) {
		if string(c.Request.Path()) == "/slow" {
			<-release
		}
		helloHandler(c)
	}
	ts := startServer(t, "tcp", s)
	busy := ts.connect()
	busy.send(get("/slow"))
	time.Sleep(50 * time.Millisecond) // the handler is running
	drained := make(chan error, 1)
	go func() { drained <- s.Drain(context.Background()) }()
	time.Sleep(150 * time.Millisecond) // past the delay
	late := ts.connect()
	time.Sleep(50 * time.Millisecond) // several of Drain's ticks
	if resp, _ := late.roundTrip(get("/")); resp.StatusCode != 200 || !resp.Close {
		t.Fatalf("new connection after the delay: %d, close=%v", resp.StatusCode, resp.Close)
	}
	close(release)
	busy.read("GET")
	if err := <-drained; err != nil {
		t.Fatalf("Drain: %v", err)
	}
}
