package hostile

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"net"
	"net/http"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/echo"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// heapSlack is how much more live heap a test may leave behind than it
// found, in bytes: generous, it only catches per-connection or per-byte
// retention.
const heapSlack = 64 << 20

// checkLeaks records the goroutine count and live heap now and, when the
// test ends (after every cleanup registered later, such as the server's
// shutdown), polls up to 10 s for the goroutine count to come back to the
// baseline and requires the heap to have grown by less than heapSlack.
func checkLeaks(t *testing.T) {
	t.Helper()
	runtime.GC()
	base := runtime.NumGoroutine()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	t.Cleanup(func() {
		deadline := time.Now().Add(10 * time.Second)
		for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > base {
			var buf bytes.Buffer
			pprof.Lookup("goroutine").WriteTo(&buf, 1)
			t.Errorf("%d goroutines 10 s after the test, baseline %d:\n%s", n, base, buf.Bytes())
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		t.Logf("live heap %d KiB before, %d KiB after; goroutines back to %d", before.HeapAlloc>>10, after.HeapAlloc>>10, base)
		if grown > heapSlack {
			t.Errorf("live heap grew by %d MiB, want < %d MiB", grown>>20, heapSlack>>20)
		}
	})
}

// listener wraps a TCP listener: it counts the bytes the server read from
// its connections and their closes.
type listener struct {
	net.Listener
	bytesRead atomic.Int64
	closed    atomic.Int64
	mu        sync.Mutex
	all       []*countingConn // every accepted connection
}

func (l *listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	cc := &countingConn{Conn: c, l: l}
	l.mu.Lock()
	l.all = append(l.all, cc)
	l.mu.Unlock()
	return cc, nil
}

// firstClose returns the earliest server-side close so far (zero if none).
func (l *listener) firstClose() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	var first time.Time
	for _, c := range l.all {
		if e := c.closedAt.Load(); e != nil && (first.IsZero() || e.Before(first)) {
			first = *e
		}
	}
	return first
}

// silentConn is a connection the server read from but never wrote to.
type silentConn struct {
	first, closed time.Time // first byte read; server-side close (zero while open)
}

// silentConns returns every accepted connection that read a byte at or
// after since and was never written to.
func (l *listener) silentConns(since time.Time) []silentConn {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []silentConn
	for _, c := range l.all {
		f := c.firstRead.Load()
		if f == nil || f.Before(since) || c.wrote.Load() {
			continue
		}
		sc := silentConn{first: *f}
		if e := c.closedAt.Load(); e != nil {
			sc.closed = *e
		}
		out = append(out, sc)
	}
	return out
}

// countingConn is a server-side connection that counts what it reads.
// It deliberately hides syscall.Conn and other optional interfaces.
type countingConn struct {
	net.Conn
	l         *listener
	once      sync.Once
	firstRead atomic.Pointer[time.Time] // when the first byte was read
	closedAt  atomic.Pointer[time.Time]
	wrote     atomic.Bool // the server wrote a byte
}

func (c *countingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if n > 0 {
		c.wrote.Store(true)
	}
	return n, err
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && c.firstRead.Load() == nil {
		now := time.Now()
		c.firstRead.CompareAndSwap(nil, &now)
	}
	c.l.bytesRead.Add(int64(n))
	return n, err
}

func (c *countingConn) Close() error {
	c.once.Do(func() {
		now := time.Now()
		c.closedAt.Store(&now)
		c.l.closed.Add(1)
	})
	return c.Conn.Close()
}

// startServer serves srv (Handler defaulting to handle) on a loopback port
// until the test ends, and returns its address and counting listener.
func startServer(t testing.TB, srv *brisk.Server) (string, *listener) {
	t.Helper()
	ln := &listener{Listener: testserver.Listen(t)}
	if srv.Handler == nil {
		srv.Handler = handle
	}
	testserver.Serve(t, srv, ln)
	return ln.Addr().String(), ln
}

// handle serves /hello ("Hello, World!"), /big?n=N (N bytes) and echoes
// anything else (internal/echo).
func handle(c *brisk.Ctx) {
	switch string(c.Request.Path()) {
	case "/hello":
		c.Response.SetBodyString("Hello, World!")
	case "/big":
		q, _ := bytes.CutPrefix(c.Request.Query(), []byte("n="))
		n, _ := strconv.Atoi(string(q))
		c.Response.SetBody(bytes.Repeat([]byte("x"), n))
	default:
		echo.Handle(c)
	}
}

// dial connects to addr or fails the test.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// readResponse reads one response to a request with the given method.
func readResponse(br *bufio.Reader, method string) (*http.Response, []byte, error) {
	resp, err := http.ReadResponse(br, &http.Request{Method: method})
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	var body bytes.Buffer
	_, err = body.ReadFrom(resp.Body)
	return resp, body.Bytes(), err
}

// b64 is standard base64, as the echo document uses.
func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// containsString reports whether b contains s.
func containsString(b []byte, s string) bool { return bytes.Contains(b, []byte(s)) }
