package files

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// The test harness of the root package's behaviour tests, over brisk's
// exported API: a Server on a transport, raw connections to it, and the
// one-request-per-step connection of the allocation tests.

// transports lists the listeners the transport-dependent tests run over.
var transports = []string{"tcp", "inmemory"}

// testServer is a brisk.Server serving on a transport until the test ends.
type testServer struct {
	t    *testing.T
	dial func() (net.Conn, error)
}

// startServer serves s on the named transport ("tcp", on loopback, or
// "inmemory", a brisktest.Listener) until the test ends, with a silent
// logger unless s has one; testserver.Serve shuts it down (and, under
// BRISK_TEST_PARK, parks idle connections).
func startServer(t *testing.T, transport string, s *brisk.Server) *testServer {
	t.Helper()
	if s.Logger == nil {
		s.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ts := &testServer{t: t}
	var ln net.Listener
	switch transport {
	case "tcp":
		l := testserver.Listen(t)
		ln = l
		ts.dial = func() (net.Conn, error) { return net.Dial("tcp", l.Addr().String()) }
	default:
		l := brisktest.NewListener()
		ln = l
		ts.dial = l.Dial
	}
	testserver.Serve(t, s, ln)
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

// forTransports runs f once per transport.
func forTransports(t *testing.T, f func(t *testing.T, transport string)) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) { f(t, tr) })
	}
}

// stepServer serves h on one connection that carries req once per call
// of the function returned, which returns the bytes of the write it
// caused: a request per step, for testing.AllocsPerRun.
func stepServer(t *testing.T, req []byte, h brisk.Handler) func() int {
	t.Helper()
	ln := fakenet.NewListener()
	s := &brisk.Server{Handler: h, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
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

// stepConn serves one request per step for allocation tests: Read waits
// for a step, Write reports the response bytes.
type stepConn struct {
	*fakenet.Conn // Close, addresses, deadlines
	req           []byte
	in            chan struct{}
	out           chan int
	done          chan struct{}
}

func newStepConn(req []byte) *stepConn {
	return &stepConn{req: req, in: make(chan struct{}), out: make(chan int, 1), done: make(chan struct{}),
		Conn: fakenet.NewConn(nil, 1, 0)}
}

func (c *stepConn) Read(p []byte) (int, error) {
	select {
	case <-c.in:
		return copy(p, c.req), nil
	case <-c.done:
		return 0, io.EOF
	}
}

func (c *stepConn) Write(p []byte) (int, error) {
	c.out <- len(p)
	return len(p), nil
}
