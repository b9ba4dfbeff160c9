package sse_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/compress"
	"github.com/brisk-http/brisk/sse"
)

// get serves h on an in-memory listener and GETs / with the given
// fields, returning the response (its body streaming).
func get(t *testing.T, srv *brisk.Server, fields map[string]string) *http.Response {
	t.Helper()
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	tr := &http.Transport{DialContext: ln.DialContext, DisableCompression: true}
	t.Cleanup(tr.CloseIdleConnections)
	req, _ := http.NewRequest("GET", "http://example.com/", nil)
	for k, v := range fields {
		req.Header.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	resp, err := (&http.Client{Transport: tr}).Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestEncoding: the fields of each event, on the wire (WHATWG HTML
// §9.2.5), and the response's head.
func TestEncoding(t *testing.T) {
	events := []sse.Event{
		{Data: "hello"},
		{ID: "7", Event: "update", Data: "line 1\nline 2\r\nline 3\rline 4"},
		{Data: " leading space and trailing newline\n"},
		{Event: "ping"},
		{ID: "8"},
		{Retry: 2500 * time.Millisecond, Data: "x"},
		{Retry: time.Microsecond},
	}
	const want = "data: hello\n\n" +
		"id: 7\nevent: update\ndata: line 1\ndata: line 2\ndata: line 3\ndata: line 4\n\n" +
		"data:  leading space and trailing newline\ndata: \n\n" +
		"event: ping\ndata: \n\n" +
		"id: 8\n\n" +
		"retry: 2500\ndata: x\n\n" +
		"retry: 1\n\n" +
		":a comment\n:on two lines\n\n"
	resp := get(t, &brisk.Server{Handler: func(c *brisk.Ctx) {
		s, err := sse.New(c, nil)
		if err != nil {
			return
		}
		for _, e := range events {
			if err := s.Send(e); err != nil {
				t.Error(err)
			}
		}
		s.Comment("a comment\non two lines")
	}}, nil)
	body, err := io.ReadAll(resp.Body)
	if err != nil || string(body) != want {
		t.Errorf("stream %q, %v\nwant %q", body, err, want)
	}
	for k, v := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	if resp.StatusCode != 200 || resp.ContentLength != -1 {
		t.Errorf("status %d, Content-Length %d", resp.StatusCode, resp.ContentLength)
	}
}

// TestFieldRejected: CR or LF in an id or event type, NUL in an id, fail
// with ErrField and write nothing.
func TestFieldRejected(t *testing.T) {
	resp := get(t, &brisk.Server{Handler: func(c *brisk.Ctx) {
		s, _ := sse.New(c, nil)
		for _, e := range []sse.Event{{ID: "1\n2"}, {ID: "1\r"}, {ID: "a\x00"}, {Event: "a\nb"}, {Event: "a\rb", Data: "x"}} {
			if err := s.Send(e); !errors.Is(err, sse.ErrField) {
				t.Errorf("%+v: %v, want ErrField", e, err)
			}
		}
		s.Send(sse.Event{Data: "ok"})
	}}, nil)
	if body, _ := io.ReadAll(resp.Body); string(body) != "data: ok\n\n" {
		t.Errorf("stream %q", body)
	}
}

// TestFlushPerEvent: each event reaches the client before the next is
// sent: the handler waits for the client's acknowledgement of each.
func TestFlushPerEvent(t *testing.T) {
	ack := make(chan struct{})
	resp := get(t, &brisk.Server{Handler: func(c *brisk.Ctx) {
		s, _ := sse.New(c, nil)
		for _, d := range []string{"one", "two"} {
			s.Send(sse.Event{Data: d})
			select {
			case <-ack:
			case <-time.After(10 * time.Second):
				t.Error("no acknowledgement: the event was not flushed")
				return
			}
		}
	}}, nil)
	br := bufio.NewReader(resp.Body)
	for _, want := range []string{"data: one\n", "\n", "data: two\n", "\n"} {
		line, err := br.ReadString('\n')
		if err != nil || line != want {
			t.Fatalf("line %q, %v; want %q", line, err, want)
		}
		if line == "\n" {
			ack <- struct{}{}
		}
	}
}

// TestServe: Serve relays events, sends keep-alive comments while none
// comes, and returns nil when the channel closes.
func TestServe(t *testing.T) {
	events := make(chan sse.Event)
	served := make(chan error, 1)
	resp := get(t, &brisk.Server{Handler: func(c *brisk.Ctx) {
		s, _ := sse.New(c, &sse.Options{KeepAlive: 10 * time.Millisecond})
		served <- s.Serve(events)
	}}, nil)
	br := bufio.NewReader(resp.Body)
	if line, _ := br.ReadString('\n'); line != ":\n" {
		t.Errorf("first line %q, want a keep-alive comment", line)
	}
	events <- sse.Event{Data: "e"}
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == "data: e\n" {
			break
		}
		if line != ":\n" && line != "\n" {
			t.Fatalf("line %q", line)
		}
	}
	close(events)
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestLastEventID: the request's Last-Event-ID is exposed.
func TestLastEventID(t *testing.T) {
	got := make(chan string, 1)
	get(t, &brisk.Server{Handler: func(c *brisk.Ctx) {
		s, _ := sse.New(c, nil)
		got <- s.LastEventID()
	}}, map[string]string{"Last-Event-ID": "42"})
	if id := <-got; id != "42" {
		t.Errorf("LastEventID %q", id)
	}
}

// TestClientClose: by default (client-close cancellation), Serve returns as soon as the
// client closes the connection, with no event to send; Shutdown ends it
// the same way.
func TestClientClose(t *testing.T) {
	for _, shutdown := range []bool{false, true} {
		served := make(chan error, 1)
		srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
			s, _ := sse.New(c, &sse.Options{KeepAlive: -1})
			served <- s.Serve(nil)
		}}
		ln := brisktest.NewListener()
		go srv.Serve(ln)
		nc, _ := ln.Dial()
		io.WriteString(nc, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
		if err != nil || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("%v %v", resp, err)
		}
		if shutdown {
			go srv.Shutdown(context.Background())
		} else {
			nc.Close()
		}
		select {
		case err := <-served:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("shutdown=%v: Serve: %v, want context.Canceled", shutdown, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("shutdown=%v: Serve did not return", shutdown)
		}
		nc.Close()
		srv.Shutdown(context.Background())
	}
}

// TestNoCompression: package compress leaves an event stream alone
// (no-transform), so events are not held in a compressor.
func TestNoCompression(t *testing.T) {
	ack := make(chan struct{})
	h := compress.New(compress.Config{})(func(c *brisk.Ctx) {
		s, _ := sse.New(c, nil)
		s.Send(sse.Event{Data: strings.Repeat("compressible ", 20)})
		<-ack
	})
	resp := get(t, &brisk.Server{Handler: h}, map[string]string{"Accept-Encoding": "gzip, br"})
	defer close(ack)
	if ce := resp.Header.Get("Content-Encoding"); ce != "" {
		t.Errorf("Content-Encoding %q", ce)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "data: compressible") {
		t.Errorf("first line %q, %v", line, err)
	}
}

// TestCurl: curl -N receives each event as it is sent.
func TestCurl(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl not found (Debian package curl)")
	}
	ack := make(chan struct{})
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		s, _ := sse.New(c, nil)
		s.Send(sse.Event{ID: "1", Data: "first"})
		select { // curl printed the first event: it was flushed
		case <-ack:
		case <-time.After(10 * time.Second):
			return // not flushed: curl never printed it
		}
		s.Send(sse.Event{ID: "2", Data: "second"})
	}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, curl, "-N", "-s", "http://"+ln.Addr().String()+"/")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(out)
	var got strings.Builder
	for {
		line, err := br.ReadString('\n')
		got.WriteString(line)
		if got.String() == "id: 1\ndata: first\n\n" {
			close(ack)
		}
		if err != nil {
			break
		}
	}
	cmd.Wait()
	if got.String() != "id: 1\ndata: first\n\nid: 2\ndata: second\n\n" {
		t.Errorf("curl printed %q", got.String())
	}
}

// TestHead: a HEAD gets the event stream's head, and Serve returns at
// once instead of waiting for events that would not be sent.
func TestHead(t *testing.T) {
	served := make(chan error, 1)
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		s, _ := sse.New(c, nil)
		served <- s.Serve(make(chan sse.Event))
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	nc, _ := ln.Dial()
	defer nc.Close()
	io.WriteString(nc, "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(nc), &http.Request{Method: "HEAD"})
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%v %v", resp, err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve blocked on a HEAD request")
	}
}
