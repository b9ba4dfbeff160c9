package brisk

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
)

func TestPanicIs500AndCloses(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		var logs syncbuf.Buffer
		ts := startServer(t, tr, &Server{
			Logger: slog.New(slog.NewTextHandler(&logs, nil)),
			Handler: func(c *Ctx) {
				if string(c.Request.Path()) == "/panic" {
					panic("boom")
				}
				echoPath(c)
			},
		})
		other := ts.connect()
		other.roundTrip(get("/before"))
		c := ts.connect()
		resp, body := c.roundTrip(get("/panic"))
		if resp.StatusCode != 500 || !resp.Close || body != "Internal Server Error\n" {
			t.Fatalf("got %d close=%v %q", resp.StatusCode, resp.Close, body)
		}
		c.expectClosed()
		if !strings.Contains(logs.String(), "boom") {
			t.Errorf("panic not logged: %q", logs.String())
		}
		if _, body := other.roundTrip(get("/after")); body != "/after" {
			t.Errorf("other connection: %q", body)
		}
	})
}

func TestReadHeaderTimeout(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: echoPath, ReadHeaderTimeout: 50 * time.Millisecond})
		c := ts.connect()
		c.sendSync("GET / HTTP/1.1\r\nHo")
		start := time.Now()
		c.expectClosed()
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("closed after %v", d)
		}
	})
}

func TestIdleTimeout(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: echoPath, IdleTimeout: 50 * time.Millisecond})
		c := ts.connect()
		c.roundTrip(get("/"))
		c.expectClosed()
	})
}

// TestMaxConns: a connection beyond MaxConns is answered, unread, with
// the 503 of the one error-response path (status line, Server, Date,
// Content-Type, Content-Length, Connection: close, as for every rejection)
// and closed; the connection being served stays open.
func TestMaxConns(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: echoPath, MaxConns: 1, Name: "brisk-test"})
		first := ts.connect()
		first.roundTrip(get("/")) // served: the connection is established
		second := ts.connect()
		const want = "HTTP/1.1 503 Service Unavailable\r\nServer: brisk-test\r\nDate: D\r\n" +
			"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 20\r\nConnection: close\r\n\r\n" +
			"Service Unavailable\n"
		if got := second.readUntilClose(); got != want {
			t.Fatalf("got\n%q\nwant\n%q", got, want)
		}
		first.expectOpen()
	})
}

func TestShutdownClosesIdleAtOnce(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		s := &Server{Handler: echoPath}
		ts := startServer(t, tr, s)
		var conns []*client
		for range 5 {
			c := ts.connect()
			c.roundTrip(get("/"))
			conns = append(conns, c)
		}
		ts.connect() // a new connection that never sent a request
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		start := time.Now()
		if err := s.Shutdown(ctx); err != nil {
			t.Fatalf("Shutdown: %v", err)
		}
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("Shutdown took %v", d)
		}
		for _, c := range conns {
			c.expectClosed()
		}
	})
}

func TestShutdownWaitsForInFlight(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		entered := make(chan struct{})
		release := make(chan struct{})
		var ctxErr error
		s := &Server{Handler: func(c *Ctx) {
			close(entered)
			<-release
			ctxErr = c.Context().Err()
			c.Response.SetBodyString("done")
		}}
		ts := startServer(t, tr, s)
		c := ts.connect()
		c.send(get("/"))
		<-entered
		shut := make(chan error, 1)
		go func() { shut <- s.Shutdown(context.Background()) }()
		select {
		case err := <-shut:
			t.Fatalf("Shutdown returned %v with a handler running", err)
		case <-time.After(100 * time.Millisecond):
		}
		close(release)
		resp, body := c.read("GET")
		if body != "done" || !resp.Close {
			t.Fatalf("got %q close=%v", body, resp.Close)
		}
		if err := <-shut; err != nil {
			t.Fatalf("Shutdown: %v", err)
		}
		if ctxErr != context.Canceled {
			t.Errorf("Ctx.Context not cancelled on shutdown: %v", ctxErr)
		}
	})
}

func TestShutdownDeadline(t *testing.T) {
	release := make(chan struct{})
	s := &Server{Handler: func(c *Ctx) { <-release }}
	ts := startServer(t, "inmemory", s)
	defer close(release)
	c := ts.connect()
	c.send(get("/"))
	time.Sleep(20 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := s.Shutdown(ctx); err != context.DeadlineExceeded {
		t.Fatalf("Shutdown: %v", err)
	}
}

func TestClientCloseCancels(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		cancelled := make(chan error, 1)
		ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
			if string(c.Request.Path()) != "/wait" {
				echoPath(c)
				return
			}
			select {
			case <-c.Context().Done():
				cancelled <- c.Context().Err()
			case <-time.After(3 * time.Second):
				cancelled <- nil
			}
		}})
		// Without a close the context stays live and the connection works.
		c := ts.connect()
		if _, body := c.roundTrip(get("/x")); body != "/x" {
			t.Fatalf("body %q", body)
		}
		c.expectOpen()
		c2 := ts.connect()
		c2.sendSync(get("/wait"))
		time.Sleep(20 * time.Millisecond)
		c2.nc.Close()
		if err := <-cancelled; err != context.Canceled {
			t.Fatalf("context: %v", err)
		}
	})
}

func TestClientCloseCancelsPipelined(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
		time.Sleep(5 * time.Millisecond) // let the next request arrive during the watch
		echoPath(c)
	}})
	c := ts.connect()
	c.sendSync(get("/1"))
	time.Sleep(2 * time.Millisecond)
	c.sendSync(get("/2"))
	for _, want := range []string{"/1", "/2"} {
		if _, body := c.read("GET"); body != want {
			t.Fatalf("body %q, want %q", body, want)
		}
	}
}
