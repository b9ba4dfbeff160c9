package h3

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestLimits: the brisk.Server's limits as Configure maps them. A body
// declared over MaxBodyBytes is a 413 without the handler; a longer
// streamed one fails its read; a field section over MaxHeaderBytes is
// answered 431 by quic-go before the handler and not reported.
func TestLimits(t *testing.T) {
	f := start(t, func(c *brisk.Ctx) {
		b, err := c.Request.Body()
		if err != nil {
			c.Response.SetStatusCode(http.StatusRequestEntityTooLarge)
			c.Response.SetBodyString(err.Error())
			return
		}
		c.Response.SetBodyString("read " + strconv.Itoa(len(b)))
	}, func(s *brisk.Server) {
		s.MaxBodyBytes = 1 << 10
		s.MaxHeaderBytes = 4 << 10
	})
	resp, err := f.client.Post(f.url("/declared"), "text/plain", bytes.NewReader(make([]byte, 2<<10)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("declared 2 KiB: status %d, want 413", resp.StatusCode)
	}
	if rec := f.rec.one(t, "/declared"); rec.Status != http.StatusRequestEntityTooLarge || rec.Proto != "HTTP/3.0" {
		t.Errorf("declared: record %d %q", rec.Status, rec.Proto)
	}
	req, _ := http.NewRequest("POST", f.url("/streamed"), io.NopCloser(bytes.NewReader(make([]byte, 2<<10))))
	req.ContentLength = -1
	resp, err = f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("streamed 2 KiB: status %d, want 413", resp.StatusCode)
	}
	req, _ = http.NewRequest("GET", f.url("/bighead"), nil)
	req.Header.Set("X-Big", strings.Repeat("a", 8<<10))
	if resp, err = f.client.Do(req); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("8 KiB field over a 4 KiB MaxHeaderBytes: status %d, want 431", resp.StatusCode)
		}
	}
	f.rec.mu.Lock()
	n := len(f.rec.recs["/bighead"])
	f.rec.mu.Unlock()
	if n != 0 {
		t.Errorf("refused field section reported %d times", n)
	}
}

// TestMaxConns: past the brisk.Server's MaxConns, a new QUIC connection
// is closed at once.
func TestMaxConns(t *testing.T) {
	f := start(t, describe, func(s *brisk.Server) { s.MaxConns = 1 })
	resp, err := f.client.Get(f.url("/one"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	second := &http.Client{Transport: cloneTransport(t, f)}
	if resp, err := second.Get(f.url("/two")); err == nil {
		resp.Body.Close()
		t.Fatalf("a second connection past MaxConns 1 was served: %d", resp.StatusCode)
	}
}

// TestMaxConcurrentStreams: with Config.MaxConcurrentStreams 2, five
// requests sent at once on one connection reach their handlers two at a
// time, and all are answered.
func TestMaxConcurrentStreams(t *testing.T) {
	var now, most atomic.Int32
	f := startConfig(t, func(c *brisk.Ctx) {
		n := now.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(100 * time.Millisecond)
		now.Add(-1)
		c.Response.SetBodyString("ok")
	}, nil, Config{MaxConcurrentStreams: 2})
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Go(func() {
			resp, err := f.client.Get(f.url("/s" + strconv.Itoa(i)))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("status %d", resp.StatusCode)
			}
		})
	}
	wg.Wait()
	if m := most.Load(); m != 2 {
		t.Fatalf("%d requests in their handlers at once, want 2", m)
	}
}

// TestBodyTooSlow: a request body slower than MinRequestBodyRate, past
// MinRequestBodyRateGrace, fails the handler's read with
// brisk.ErrBodyTooSlow, as on HTTP/1.1.
func TestBodyTooSlow(t *testing.T) {
	f := start(t, func(c *brisk.Ctx) {
		_, err := io.Copy(io.Discard, c.Request.BodyReader())
		if errors.Is(err, brisk.ErrBodyTooSlow) {
			c.Response.SetStatusCode(http.StatusRequestTimeout)
			return
		}
		c.Response.SetStatusCode(http.StatusBadRequest)
		c.Response.SetBodyString(fmt.Sprint(err))
	}, func(s *brisk.Server) {
		s.MinRequestBodyRate = 1 << 10
		s.MinRequestBodyRateGrace = 200 * time.Millisecond
	})
	body := &drip{n: 50, pause: 50 * time.Millisecond} // 20 bytes a second for 2.5 s
	req, _ := http.NewRequest("POST", f.url("/drip"), body)
	req.ContentLength = -1
	resp, err := f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d %q, want 408 from ErrBodyTooSlow", resp.StatusCode, b)
	}
	if rec := f.rec.one(t, "/drip"); rec.Status != http.StatusRequestTimeout || rec.Proto != "HTTP/3.0" {
		t.Errorf("record %d %q", rec.Status, rec.Proto)
	}
}

// drip is a request body of n bytes, each after a pause.
type drip struct {
	n     int
	pause time.Duration
}

func (d *drip) Read(p []byte) (int, error) {
	if d.n == 0 {
		return 0, io.EOF
	}
	time.Sleep(d.pause)
	d.n--
	p[0] = 'x'
	return 1, nil
}

// TestIdleTimeout: the brisk.Server's IdleTimeout closes an HTTP/3
// connection without requests.
func TestIdleTimeout(t *testing.T) {
	f := start(t, describe, func(s *brisk.Server) { s.IdleTimeout = 300 * time.Millisecond })
	resp, err := f.client.Get(f.url("/idle"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	conns := func() int {
		f.s3.mu.Lock()
		defer f.s3.mu.Unlock()
		return len(f.s3.conns)
	}
	if n := conns(); n != 1 {
		t.Fatalf("%d connections after a request, want 1", n)
	}
	for deadline := time.Now().Add(5 * time.Second); conns() > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the idle connection was not closed within 5 s of a 300 ms IdleTimeout")
		}
	}
}
