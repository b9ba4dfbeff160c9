package h3

import (
	"context"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestDrain: brisk.Server.Drain sends GOAWAY on HTTP/3 too; the request
// in flight finishes with its context intact, and Drain returns once the
// QUIC connection closed.
func TestDrain(t *testing.T) {
	release := make(chan struct{})
	f := start(t, func(c *brisk.Ctx) {
		<-release
		if c.Context().Err() != nil {
			c.Response.SetStatusCode(500)
		}
		c.Response.SetBodyString("drained")
	}, func(s *brisk.Server) { s.DrainDelay = -1 })
	got := make(chan string, 1)
	go func() {
		resp, err := f.client.Get(f.url("/slow"))
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- resp.Proto + " " + resp.Status + " " + string(b)
	}()
	time.Sleep(200 * time.Millisecond) // the request is in its handler
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	drained := make(chan error, 1)
	go func() { drained <- f.srv.Drain(ctx) }()
	time.Sleep(100 * time.Millisecond)
	close(release)
	if s := <-got; s != "HTTP/3.0 200 OK drained" {
		t.Fatalf("request in flight: %q", s)
	}
	if err := <-drained; err != nil {
		t.Fatalf("Drain: %v", err)
	}
	select {
	case <-f.s3.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Done not closed after Drain")
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.url("/after"), nil)
	if _, err := f.client.Do(req); err == nil {
		t.Fatal("a request after Drain was served")
	}
}

// TestCurl: curl --http3, when the curl on PATH was built with HTTP/3.
func TestCurl(t *testing.T) {
	path, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl is not on PATH")
	}
	out, err := exec.Command(path, "-V").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "HTTP3") {
		t.Skip("this curl has no HTTP/3 (curl -V lists no HTTP3 feature; Debian 12's curl 7.88 is built without it)")
	}
	f := start(t, describe, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	body, err := exec.CommandContext(ctx, path, "-sS", "-k", "--http3-only", f.url("/curl")).Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(body), "HTTP/3.0 GET") {
		t.Fatalf("body %q", body)
	}
	if rec := f.rec.one(t, "/curl"); rec.Proto != "HTTP/3.0" || rec.Status != http.StatusOK {
		t.Fatalf("record %q %d", rec.Proto, rec.Status)
	}
}

// TestShutdownCancels: brisk.Server.Shutdown cancels the context of an
// HTTP/3 request in flight, as on HTTP/1.1, and returns once its
// connection closed.
func TestShutdownCancels(t *testing.T) {
	inHandler, cancelled := make(chan struct{}), make(chan struct{})
	f := start(t, func(c *brisk.Ctx) {
		close(inHandler)
		select {
		case <-c.Context().Done():
			close(cancelled)
		case <-time.After(5 * time.Second):
		}
	}, nil)
	go func() {
		if resp, err := f.client.Get(f.url("/held")); err == nil {
			resp.Body.Close()
		}
	}()
	<-inHandler
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := f.srv.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	select {
	case <-cancelled:
	default:
		t.Fatal("the request's context was not cancelled by Shutdown")
	}
}

// TestGetWithBody: a GET whose stream carries content (no
// Content-Length) reaches the handler with all of it.
func TestGetWithBody(t *testing.T) {
	f := start(t, func(c *brisk.Ctx) {
		b, _ := c.Request.Body()
		c.Response.SetBody(b)
	}, nil)
	req, _ := http.NewRequest("GET", f.url("/getbody"), io.NopCloser(strings.NewReader("abc")))
	req.ContentLength = -1
	resp, err := f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "abc" {
		t.Fatalf("body %q", b)
	}
}
