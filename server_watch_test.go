package brisk

import (
	"context"
	"crypto/tls"
	"io"
	"testing"
	"time"
)

// TestClientCloseCancelsAskedAfterBody: a handler that reads the body
// and only then asks for the context sees it cancelled when the client
// closes the connection.
func TestClientCloseCancelsAskedAfterBody(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		cancelled := make(chan error, 1)
		ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
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

// TestClientCloseCancelsAskedBeforeBody: a context asked for before
// the body is read is the one the watch cancels once the body is read.
func TestClientCloseCancelsAskedBeforeBody(t *testing.T) {
	cancelled := make(chan error, 1)
	ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
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

// TestClientCloseCancelsPipelinedAsked: a request arriving while the
// watch of the one before runs (its handler asked for the context) is
// served whole, and does not cancel that context.
func TestClientCloseCancelsPipelinedAsked(t *testing.T) {
	errs := make(chan error, 2)
	ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
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

// TestClientCloseCancelsNotAsked: with a handler that never asks for
// the context (no watch), a request pipelined while the one before is
// handled is answered after it, whole.
func TestClientCloseCancelsNotAsked(t *testing.T) {
	s := &Server{Handler: func(c *Ctx) {
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

// ignoredClose returns a handler that asks for the context, tells
// started, waits up to 300 ms for it to end and sends what it ended with
// (nil: not cancelled) to ended.
func ignoredClose(started chan<- struct{}, ended chan<- error) Handler {
	return func(c *Ctx) {
		ctx := c.Context()
		started <- struct{}{}
		select {
		case <-ctx.Done():
		case <-time.After(300 * time.Millisecond):
		}
		ended <- ctx.Err()
	}
}

// TestIgnoreClientClose: with IgnoreClientClose, the client closing the
// connection while a handler that asked for the context runs leaves the
// context as it was, over TCP, in memory and over TLS.
func TestIgnoreClientClose(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		started, ended := make(chan struct{}, 1), make(chan error, 1)
		ts := startServer(t, tr, &Server{IgnoreClientClose: true, Handler: ignoredClose(started, ended)})
		c := ts.connect()
		c.sendSync(get("/wait"))
		<-started
		c.nc.Close()
		if err := <-ended; err != nil {
			t.Fatalf("context: %v, want not cancelled", err)
		}
	})
	t.Run("tls", func(t *testing.T) {
		p := getPKI(t)
		started, ended := make(chan struct{}, 1), make(chan error, 1)
		addr := serveTLS(t, &Server{IgnoreClientClose: true, Handler: ignoredClose(started, ended),
			TLSConfig: &tls.Config{Certificates: []tls.Certificate{p.server}}}, "", "")
		tc, err := dialTLS(t, addr, p.clientTLS())
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(tc, get("/wait"))
		<-started
		tc.Close()
		if err := <-ended; err != nil {
			t.Fatalf("context: %v, want not cancelled", err)
		}
	})
}

// TestClientCloseCancelsByDefault: the zero Server's handler sees its
// context cancelled within the test's bound when the client closes, over
// TCP, in memory and over TLS (a handler asking, then waiting).
func TestClientCloseCancelsByDefault(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		started, ended := make(chan struct{}, 1), make(chan error, 1)
		ts := startServer(t, tr, &Server{Handler: ignoredClose(started, ended)})
		c := ts.connect()
		c.sendSync(get("/wait"))
		<-started
		c.nc.Close()
		if err := <-ended; err != context.Canceled {
			t.Fatalf("context: %v, want context.Canceled", err)
		}
	})
}

// TestClientCloseForeignContext: a context set with SetContext that does
// not derive from Context(), before the handler asks for it, cannot be
// cancelled by the watch: the client closing leaves it as it is (and
// does not crash the server), and the connection's next request is
// served.
func TestClientCloseForeignContext(t *testing.T) {
	type key struct{}
	started, ended := make(chan struct{}, 1), make(chan error, 1)
	ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
		if string(c.Request.Path()) != "/wait" {
			echoPath(c)
			return
		}
		c.SetContext(context.WithValue(context.Background(), key{}, 1))
		ignoredClose(started, ended)(c)
	}})
	c := ts.connect()
	c.sendSync(get("/wait"))
	<-started
	c.nc.Close()
	if err := <-ended; err != nil {
		t.Fatalf("context: %v, want not cancelled", err)
	}
	c = ts.connect()
	if _, body := c.roundTrip(get("/next")); body != "/next" {
		t.Fatalf("body %q", body)
	}
}
