package advisories

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// ioTimeout bounds every read and write a test makes on loopback.
const ioTimeout = 10 * time.Second

// counted is a listener that counts the bytes the server read from its
// connections and how many it closed.
type counted struct {
	net.Listener
	read   atomic.Int64
	closed atomic.Int64
}

func (l *counted) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countedConn{Conn: c, l: l}, nil
}

// countedConn hides the optional interfaces of the TCP connection
// (sendfile, syscall.Conn): the server sees a plain net.Conn.
type countedConn struct {
	net.Conn
	l    *counted
	once sync.Once
}

func (c *countedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.l.read.Add(int64(n))
	return n, err
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.l.closed.Add(1) })
	return c.Conn.Close()
}

// serve runs s (quiet log unless set) on loopback until the test ends and
// returns its address and the counting listener.
func serve(t *testing.T, s *brisk.Server) (string, *counted) {
	t.Helper()
	ln := &counted{Listener: testserver.Listen(t)}
	testserver.Serve(t, testserver.Quiet(s), ln)
	return ln.Addr().String(), ln
}

// dial connects to addr with ioTimeout as the deadline of every I/O.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	nc, err := net.DialTimeout("tcp", addr, ioTimeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(ioTimeout))
	return nc
}

// answer is what a server did with one raw request.
type answer struct {
	status int    // 0: no response
	body   string // the response body
	closed bool   // the server closed the connection after it
}

// exchange writes raw on a new connection, reads one response (to method
// GET) and then whether the connection is closed: a read that ends in EOF
// or a reset, rather than the deadline, within ioTimeout.
func exchange(t *testing.T, addr, raw string) answer {
	t.Helper()
	nc := dial(t, addr)
	go nc.Write([]byte(raw)) // the server may stop reading first
	br := bufio.NewReader(nc)
	var a answer
	resp, err := http.ReadResponse(br, &http.Request{Method: "GET"})
	if err != nil {
		a.closed = true
		return a
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	a.status, a.body = resp.StatusCode, string(b)
	nc.SetReadDeadline(time.Now().Add(2 * time.Second))
	_, err = br.ReadByte()
	var ne net.Error
	a.closed = err != nil && !(errors.As(err, &ne) && ne.Timeout())
	return a
}

// echoTarget answers 200 with the request-target and the body it read.
func echoTarget(c *brisk.Ctx) {
	body, err := c.Request.Body()
	if err != nil {
		c.Response.SetStatusCode(brisk.ErrorStatus(err))
		return
	}
	c.Response.SetBodyString(string(c.Request.Target()) + " " + string(body))
}

// goroutinePeak samples runtime.NumGoroutine every millisecond until
// stop is closed and returns the largest count seen.
func goroutinePeak(stop <-chan struct{}) <-chan int {
	out := make(chan int, 1)
	go func() {
		peak := 0
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, runtime.NumGoroutine())
			select {
			case <-stop:
				out <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return out
}

// contains reports whether s holds sub.
func contains(s, sub string) bool { return bytes.Contains([]byte(s), []byte(sub)) }

// redirect is a response's status and Location.
type redirect struct {
	status   int
	location string
}

// exchangeOn writes raw on nc and reads one response's status and
// Location.
func exchangeOn(t *testing.T, nc net.Conn, raw string) redirect {
	t.Helper()
	if _, err := io.WriteString(nc, raw); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(nc), &http.Request{Method: "GET"})
	if err != nil {
		return redirect{}
	}
	resp.Body.Close()
	return redirect{resp.StatusCode, resp.Header.Get("Location")}
}

// gzipBomb returns 100 MiB of zeros in gzip, about 100 KiB: one member
// of 1 MiB repeated (RFC 1952 §2.2, which gzip readers decode as one
// stream).
func gzipBomb() []byte {
	var zbuf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&zbuf, gzip.BestCompression)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	return bytes.Repeat(zbuf.Bytes(), 100)
}
