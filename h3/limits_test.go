package h3

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

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
