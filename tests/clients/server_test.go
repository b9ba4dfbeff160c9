package clients

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os/exec"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/echo"
	"github.com/brisk-http/brisk/internal/testsupport/peer"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	accepted atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.accepted.Add(1)
	}
	return c, err
}

// server is a brisk server on a loopback port.
type server struct {
	addr string // host:port
	url  string // http://host:port
	ln   *countingListener
}

// conns returns the number of connections accepted so far.
func (s *server) conns() int64 { return s.ln.accepted.Load() }

// startServer serves handle on 127.0.0.1 until the test ends.
func startServer(t *testing.T) *server {
	t.Helper()
	ln := &countingListener{Listener: testserver.Listen(t)}
	testserver.Serve(t, &brisk.Server{Handler: handle}, ln)
	addr := ln.Addr().String()
	return &server{addr: addr, url: "http://" + addr, ln: ln}
}

// handle serves the test routes:
//
//	/hello          "Hello, World!" (text/plain)
//	/big?n=N        N bytes of pattern(N), with Content-Length
//	/stream?n=N     N bytes of pattern(N), chunked through the BodyWriter
//	anything else   the echo document of the request (internal/echo)
func handle(c *brisk.Ctx) {
	switch string(c.Request.Path()) {
	case "/hello":
		c.Response.Header.Set("Content-Type", "text/plain")
		c.Response.SetBodyString("Hello, World!")
	case "/big":
		c.Response.SetBody(pattern(queryN(c)))
	case "/stream":
		w := c.BodyWriter()
		p := pattern(queryN(c))
		for len(p) > 0 {
			n := min(len(p), 32<<10)
			w.Write(p[:n])
			p = p[n:]
		}
	default:
		echo.Handle(c)
	}
}

// queryN reads the query "n=N"; anything else means 0.
func queryN(c *brisk.Ctx) int {
	q := c.Request.Query()
	v, ok := bytes.CutPrefix(q, []byte("n="))
	if !ok {
		return 0
	}
	n, _ := strconv.Atoi(string(v))
	return n
}

// pattern returns n deterministic bytes, not a repeating short string, so
// a misplaced or dropped piece shows.
func pattern(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = 'a' + byte(x%26)
	}
	return b
}

// echoed is the echo document, base64 fields decoded by encoding/json.
type echoed struct {
	Headers [][2][]byte
	Body    []byte
	Method  []byte
	Version []byte
	URI     []byte
}

// field returns the first echoed value of the named field (exact case-
// insensitive name match), and whether it was present.
func (e *echoed) field(name string) (string, bool) {
	for _, f := range e.Headers {
		if bytes.EqualFold(f[0], []byte(name)) {
			return string(f[1]), true
		}
	}
	return "", false
}

// decodeEcho parses an echo body or fails the test.
func decodeEcho(t *testing.T, body []byte) *echoed {
	t.Helper()
	var e echoed
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("response is not an echo document: %v\n%.200s", err, body)
	}
	return &e
}

// need returns the path of a client binary, or skips the test.
func need(t *testing.T, name string) string {
	t.Helper()
	return peer.Need(t, name, "install it")
}

// runCmd runs a client with a timeout and returns stdout and stderr.
func runCmd(t *testing.T, timeout time.Duration, name string, args ...string) (stdout, stderr []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %q: %v\nstdout: %.2000s\nstderr: %.2000s", name, args, err, out.Bytes(), errb.Bytes())
	}
	return out.Bytes(), errb.Bytes()
}
