package brisk

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brisk-http/brisk/brisktest"
)

// transports lists the listeners every behaviour test runs over.
var transports = []string{"tcp", "inmemory"}

// testServer runs s on the named transport until the test ends.
type testServer struct {
	t    *testing.T
	srv  *Server
	dial func() (net.Conn, error)
	done chan error
}

func startServer(t *testing.T, transport string, s *Server) *testServer {
	t.Helper()
	if s.Logger == nil {
		s.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	forceParking(s)
	var ln net.Listener
	ts := &testServer{t: t, srv: s, done: make(chan error, 1)}
	switch transport {
	case "tcp":
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ln = l
		ts.dial = func() (net.Conn, error) { return net.Dial("tcp", l.Addr().String()) }
	default:
		l := brisktest.NewListener()
		ln = l
		ts.dial = l.Dial
	}
	go func() { ts.done <- s.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-ts.done; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve returned %v, want ErrServerClosed", err)
		}
	})
	return ts
}

// client is one raw connection to the test server.
type client struct {
	t  *testing.T
	nc net.Conn
	br *bufio.Reader
}

func (ts *testServer) connect() *client {
	ts.t.Helper()
	nc, err := ts.dial()
	if err != nil {
		ts.t.Fatal(err)
	}
	ts.t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	return &client{t: ts.t, nc: nc, br: bufio.NewReader(nc)}
}

// send writes raw request bytes (CRLF is written as given).
func (c *client) send(raw string) {
	c.t.Helper()
	go func() { c.nc.Write([]byte(raw)) }() // pipes are synchronous
}

// sendSync writes raw and waits for the write to complete.
func (c *client) sendSync(raw string) {
	c.t.Helper()
	if _, err := c.nc.Write([]byte(raw)); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// read reads one response to a request with the given method.
func (c *client) read(method string) (*http.Response, string) {
	c.t.Helper()
	resp, err := http.ReadResponse(c.br, &http.Request{Method: method})
	if err != nil {
		c.t.Fatalf("reading response: %v", err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("reading body: %v", err)
	}
	return resp, string(body)
}

// roundTrip sends raw and reads the response.
func (c *client) roundTrip(raw string) (*http.Response, string) {
	c.t.Helper()
	c.send(raw)
	method, _, _ := strings.Cut(raw, " ")
	return c.read(method)
}

// expectClosed asserts that the server closed the connection.
func (c *client) expectClosed() {
	c.t.Helper()
	c.nc.SetReadDeadline(time.Now().Add(3 * time.Second))
	b, err := c.br.ReadByte()
	if err == nil {
		c.t.Fatalf("connection open: read %q", b)
	}
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		c.t.Fatalf("connection still open after 3s")
	}
}

// expectOpen asserts that the connection still serves requests: another
// request gets a response (of any status the handler chooses).
func (c *client) expectOpen() {
	c.t.Helper()
	c.roundTrip("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
}

func get(target string) string { return "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n" }

// forTransports runs f once per transport.
func forTransports(t *testing.T, f func(t *testing.T, transport string)) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) { f(t, tr) })
	}
}

// echoPath answers 200 with the request path as body.
func echoPath(c *Ctx) {
	c.Response.Header.Set("Content-Type", "text/plain")
	c.Response.Write(c.Request.Path())
}

// tcpPair returns the two ends of a loopback TCP connection, both closed
// when the test ends.
func tcpPair(tb testing.TB) (client, server net.Conn) {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { client.Close() })
	server, err = ln.Accept()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { server.Close() })
	return client, server
}

// skipIfNotExecutable skips t when err says the test binary cannot be
// started as a child process here: CI's arm64 step runs it under
// qemu-user, which the kernel cannot execute directly (ENOEXEC).
func skipIfNotExecutable(t *testing.T, err error) {
	t.Helper()
	if errors.Is(err, syscall.ENOEXEC) {
		t.Skipf("the test binary cannot run as a child process here: %v", err)
	}
}
