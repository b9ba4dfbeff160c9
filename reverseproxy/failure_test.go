package reverseproxy

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// deadURL returns the URL of a loopback port nobody listens on.
func deadURL(t *testing.T) string {
	ln := testserver.Listen(t)
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

// closingBackend reads a request head and closes the connection without a
// response, counting the requests.
func closingBackend(t *testing.T, n *atomic.Int32) string {
	return rawBackend(t, func(c net.Conn) {
		readHead(bufio.NewReader(c))
		n.Add(1)
	})
}

func okBackend(t *testing.T) string {
	return backend(t, func(c *brisk.Ctx) { c.Response.WriteString("ok") })
}

// TestProxyRetry: a request whose upstream could not be reached goes to
// another; an idempotent request whose connection closed before any
// response byte too; a POST that reached an upstream is not sent again.
func TestProxyRetry(t *testing.T) {
	t.Run("dial_failure_any_method", func(t *testing.T) {
		p := &Proxy{Upstreams: []string{deadURL(t), okBackend(t)}, Balance: RoundRobin}
		record := records(t, p)
		addr := front(t, p)
		for i := range 2 { // the round robin starts with either
			resp, body, err := roundTrip(t, addr, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi")
			if err != nil || resp.StatusCode != 200 || body != "ok" {
				t.Fatalf("request %d: %d %q %v", i, resp.StatusCode, body, err)
			}
		}
		if rec := record(2); rec.Attempts < 1 || rec.Err != nil {
			t.Errorf("record %+v", rec)
		}
	})
	t.Run("closed_idempotent", func(t *testing.T) {
		var n atomic.Int32
		p := &Proxy{Upstreams: []string{closingBackend(t, &n), okBackend(t)}, HealthPenalty: -1}
		addr := front(t, p)
		for i := range 4 {
			resp, body, err := roundTrip(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
			if err != nil || resp.StatusCode != 200 || body != "ok" {
				t.Fatalf("request %d: %d %q %v", i, resp.StatusCode, body, err)
			}
		}
		if n.Load() == 0 {
			t.Error("the closing upstream got no request")
		}
	})
	t.Run("closed_post_not_resent", func(t *testing.T) {
		var n atomic.Int32
		p := &Proxy{Upstreams: []string{closingBackend(t, &n)}}
		record := records(t, p)
		addr := front(t, p)
		resp, body, _ := roundTrip(t, addr, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi")
		if resp.StatusCode != 502 || body != "Bad Gateway\n" {
			t.Fatalf("%d %q, want 502 with the default body", resp.StatusCode, body)
		}
		if rec := record(1); n.Load() != 1 || rec.Attempts != 1 || !errors.Is(rec.Err, brisk.ErrConnectionClosed) {
			t.Errorf("upstream got %d requests; record %+v", n.Load(), rec)
		}
	})
	t.Run("budget", func(t *testing.T) {
		var n atomic.Int32
		p := &Proxy{Upstreams: []string{closingBackend(t, &n), closingBackend(t, &n)}, HealthPenalty: -1,
			MaxRetries: 1, RetryRatio: 0.01}
		p.Client.MaxIdempotentRetries = -1
		addr := front(t, p)
		for range 30 {
			roundTrip(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		}
		// 30 requests, 10 retries in reserve, 0.3 earned: at most 40 sent.
		if got := n.Load(); got < 30 || got > 40 {
			t.Errorf("upstreams got %d requests, want 30..40", got)
		}
	})
}

// TestProxyErrors: the status code and phase of each failure, and the
// ErrorHandler's say.
func TestProxyErrors(t *testing.T) {
	slow := rawBackend(t, func(c net.Conn) {
		readHead(bufio.NewReader(c))
		time.Sleep(2 * time.Second)
	})
	cases := []struct {
		name   string
		p      *Proxy
		req    string
		status int
		phase  Phase
		err    error
	}{
		{"no_upstream", &Proxy{}, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 503, PhasePick, ErrNoUpstream},
		{"bad_url", &Proxy{Upstreams: []string{"ftp://x"}}, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 500, PhasePick, ErrUpstreamURL},
		{"refused", &Proxy{Upstreams: []string{deadURL(t)}}, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 502, PhaseDial, nil},
		{"head_timeout", &Proxy{Upstreams: []string{slow}, ResponseHeaderTimeout: 200 * time.Millisecond},
			"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 504, PhaseRequest, brisk.ErrTimeout},
		{"connect_refused", &Proxy{Upstreams: []string{slow}}, "CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n", 405, PhasePick, ErrConnectRefused},
		{"dial_timeout", &Proxy{Upstreams: []string{slow}, DialTimeout: 100 * time.Millisecond,
			Dial: func(ctx context.Context, _, _ string) (net.Conn, error) { <-ctx.Done(); return nil, ctx.Err() }},
			"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 504, PhaseDial, context.DeadlineExceeded},
		{"tls_timeout", &Proxy{Upstreams: []string{strings.Replace(slow, "http:", "https:", 1)}, TLSHandshakeTimeout: 100 * time.Millisecond},
			"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 504, PhaseTLS, context.DeadlineExceeded},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			record := records(t, tc.p)
			addr := front(t, tc.p)
			resp, body, _ := roundTrip(t, addr, tc.req)
			if resp.StatusCode != tc.status || body != http.StatusText(tc.status)+"\n" {
				t.Errorf("%d %q, want %d with the default body", resp.StatusCode, body, tc.status)
			}
			var got *Error
			errors.As(record(1).Err, &got)
			if got == nil || got.Status != tc.status || got.Phase != tc.phase || tc.err != nil && !errors.Is(got, tc.err) {
				t.Errorf("record error %+v, want status %d phase %s err %v", got, tc.status, tc.phase, tc.err)
			}
		})
	}
	t.Run("server_error_handler", func(t *testing.T) {
		// Without Proxy.ErrorHandler, the Server's gets the *Error.
		p := &Proxy{Upstreams: []string{deadURL(t)}}
		t.Cleanup(p.CloseIdleConnections)
		addr := testserver.Start(t, testserver.Quiet(&brisk.Server{Handler: p.Serve,
			ErrorHandler: func(c *brisk.Ctx, code int, err error) {
				var e *Error
				if errors.As(err, &e) {
					c.Response.WriteString(e.Phase.String())
				}
			}}))
		resp, body, _ := roundTrip(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		if resp.StatusCode != 502 || body != PhaseDial.String() {
			t.Errorf("%d %q, want 502 and the phase %s", resp.StatusCode, body, PhaseDial)
		}
	})
	t.Run("error_handler", func(t *testing.T) {
		p := &Proxy{ErrorHandler: func(c *brisk.Ctx, e *Error) {
			c.Response.SetStatusCode(e.Status)
			c.Response.WriteString("custom " + e.Err.Error())
		}}
		resp, body, _ := roundTrip(t, front(t, p), "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		if resp.StatusCode != 503 || body != "custom "+ErrNoUpstream.Error() {
			t.Errorf("%d %q", resp.StatusCode, body)
		}
	})
}

// TestProxyBadRequestBody: a client body brisk rejects is rejected at the
// proxy with brisk's status, and the upstream sees a request cut short,
// never a complete one.
func TestProxyBadRequestBody(t *testing.T) {
	got := make(chan error, 1)
	up := backend(t, func(c *brisk.Ctx) {
		_, err := c.Request.Body()
		got <- err
	})
	addr := front(t, &Proxy{Upstreams: []string{up}})
	c := dial(t, addr)
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
	time.Sleep(50 * time.Millisecond) // the upstream gets the head and a chunk
	io.WriteString(c, "zz\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 400 || !resp.Close {
		t.Errorf("response %v (%v), want 400 closing the connection", resp, err)
	}
	select {
	case err := <-got:
		if err == nil {
			t.Error("the upstream read a complete body")
		}
	case <-time.After(testTimeout):
		t.Error("the upstream never saw the request end")
	}
}

// TestProxyRetrySameUpstream: a keep-alive connection the only upstream
// closes as a request arrives is followed by a new connection to it, for
// an idempotent request.
func TestProxyRetrySameUpstream(t *testing.T) {
	var conns atomic.Int32
	up := rawBackend(t, func(c net.Conn) {
		first := conns.Add(1) == 1
		br := bufio.NewReader(c)
		for n := 0; ; n++ {
			if _, err := readHead(br); err != nil {
				return
			}
			if first && n == 1 {
				return // closed with the second request unanswered
			}
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		}
	})
	p := &Proxy{Upstreams: []string{up}}
	record := records(t, p)
	addr := front(t, p)
	for i := range 2 {
		resp, body, err := roundTrip(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		if err != nil || resp.StatusCode != 200 || body != "ok" {
			t.Fatalf("request %d: %d %q %v", i, resp.StatusCode, body, err)
		}
	}
	if rec := record(2); rec.Attempts != 2 || conns.Load() != 2 {
		t.Errorf("last request: %d attempts over %d connections, want 2 and 2", rec.Attempts, conns.Load())
	}
}
