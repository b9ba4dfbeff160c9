package brisk

import (
	"context"
	"io"
	"testing"
	"time"
)

// TestCancelOnClientCloseAskedAfterBody: a handler that reads the body
// and only then asks for the context sees it cancelled when the client
// closes the connection.
func TestCancelOnClientCloseAskedAfterBody(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		cancelled := make(chan error, 1)
		ts := startServer(t, tr, &Server{CancelOnClientClose: true, Handler: func(c *Ctx) {
			if b, err := c.Request.Body(); err != nil || string(b) != "hello" {
				cancelled <- io.ErrUnexpectedEOF
				return
			}
			ctx := c.Context()
			select {
			case <-ctx.Done():
				cancelled <- ctx.Err()
			case <-time.After(3 * time.Second):
				cancelled <- nil
			}
		}})
		c := ts.connect()
		c.sendSync("POST /wait HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
		time.Sleep(20 * time.Millisecond)
		c.nc.Close()
		if err := <-cancelled; err != context.Canceled {
			t.Fatalf("context: %v, want context.Canceled", err)
		}
	})
}

// TestCancelOnClientCloseAskedBeforeBody: a context asked for before
// the body is read is the one the watch cancels once the body is read.
func TestCancelOnClientCloseAskedBeforeBody(t *testing.T) {
	cancelled := make(chan error, 1)
	ts := startServer(t, "tcp", &Server{CancelOnClientClose: true, Handler: func(c *Ctx) {
		ctx := c.Context()
		if b, err := c.Request.Body(); err != nil || string(b) != "hello" {
			cancelled <- io.ErrUnexpectedEOF
			return
		}
		select {
		case <-ctx.Done():
			cancelled <- ctx.Err()
		case <-time.After(3 * time.Second):
			cancelled <- nil
		}
	}})
	c := ts.connect()
	c.sendSync("POST /wait HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhel")
	time.Sleep(20 * time.Millisecond)
	c.sendSync("lo")
	time.Sleep(20 * time.Millisecond)
	c.nc.Close()
	if err := <-cancelled; err != context.Canceled {
		t.Fatalf("context: %v, want context.Canceled", err)
	}
}

// TestCancelOnClientClosePipelinedAsked: a request arriving while the
// watch of the one before runs (its handler asked for the context) is
// served whole, and does not cancel that context.
func TestCancelOnClientClosePipelinedAsked(t *testing.T) {
	errs := make(chan error, 2)
	ts := startServer(t, "tcp", &Server{CancelOnClientClose: true, Handler: func(c *Ctx) {
		ctx := c.Context()
		time.Sleep(5 * time.Millisecond) // let the next request arrive during the watch
		errs <- ctx.Err()
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
		if err := <-errs; err != nil {
			t.Fatalf("%s: context %v while the client is there", want, err)
		}
	}
}

// TestCancelOnClientCloseNotAsked: with a handler that never asks for
// the context (no watch), a request pipelined while the one before is
// handled is answered after it, whole.
func TestCancelOnClientCloseNotAsked(t *testing.T) {
	s := &Server{CancelOnClientClose: true, Handler: func(c *Ctx) {
		if string(c.Request.Path()) == "/1" {
			time.Sleep(20 * time.Millisecond)
		}
		echoPath(c)
	}}
	ts := startServer(t, "tcp", s)
	c := ts.connect()
	c.sendSync(get("/1"))
	time.Sleep(5 * time.Millisecond)
	c.sendSync(get("/2"))
	for _, want := range []string{"/1", "/2"} {
		if _, body := c.read("GET"); body != want {
			t.Fatalf("body %q, want %q", body, want)
		}
	}
}
