package reverseproxy

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// testTimeout bounds every exchange of these tests.
const testTimeout = 10 * time.Second

// backend starts a brisk server running h and returns its URL.
func backend(t *testing.T, h brisk.Handler) string {
	t.Helper()
	return "http://" + testserver.Start(t, testserver.Quiet(&brisk.Server{Handler: h}))
}

// front starts a brisk server running p and returns its address.
func front(t *testing.T, p *Proxy) string {
	t.Helper()
	t.Cleanup(p.CloseIdleConnections)
	return testserver.Start(t, testserver.Quiet(&brisk.Server{Handler: p.Serve}))
}

// rawBackend listens on loopback and runs serve for each connection,
// returning the URL; connections are closed when serve returns.
func rawBackend(t *testing.T, serve func(c net.Conn)) string {
	t.Helper()
	ln := testserver.Listen(t)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(testTimeout))
				serve(c)
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// readHead reads a request or response head from r, returning it whole.
func readHead(r *bufio.Reader) (string, error) {
	var b strings.Builder
	for {
		line, err := r.ReadString('\n')
		b.WriteString(line)
		if err != nil {
			return b.String(), err
		}
		if line == "\r\n" {
			return b.String(), nil
		}
	}
}

// dial opens a client connection to addr, bounded by testTimeout.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(testTimeout))
	t.Cleanup(func() { c.Close() })
	return c
}

// roundTrip writes req on a new connection to addr and reads one response
// with net/http's reader; the body is read whole (err: how it ended).
func roundTrip(t *testing.T, addr, req string) (*http.Response, string, error) {
	t.Helper()
	c := dial(t, addr)
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("reading the response: %v", err)
	}
	body, err := io.ReadAll(resp.Body)
	return resp, string(body), err
}

// records sets p.OnComplete to collect the Records, and returns a function
// that waits for the n-th one (1-based) and returns it: the client may see
// its response before the Proxy reports it.
func records(t *testing.T, p *Proxy) func(n int) Record {
	ch := make(chan Record, 64)
	p.OnComplete = func(_ *brisk.Ctx, r *Record) { ch <- *r }
	var seen []Record
	return func(n int) Record {
		t.Helper()
		for len(seen) < n {
			select {
			case r := <-ch:
				seen = append(seen, r)
			case <-time.After(testTimeout):
				t.Fatalf("no record #%d", n)
			}
		}
		return seen[n-1]
	}
}

// serveTLS serves srv with TLS (certs' server certificate; a PROXY
// header, when srv takes one, comes before the handshake) on ln until
// the test ends.
func serveTLS(t *testing.T, srv *brisk.Server, ln net.Listener, certs *brisktest.TLSCerts) {
	t.Helper()
	srv.TLSConfig = certs.ServerConfig()
	done := make(chan error, 1)
	go func() { done <- srv.ServeTLS(ln, "", "") }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		if err := <-done; !errors.Is(err, brisk.ErrServerClosed) {
			t.Errorf("ServeTLS returned %v", err)
		}
	})
}
