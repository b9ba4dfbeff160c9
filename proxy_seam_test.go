package brisk

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestBodyWriterAbort: an aborted chunked response ends without its last
// chunk and closes the connection; an aborted response with a
// Content-Length ends short; one aborted before its head still sends it.
func TestBodyWriterAbort(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
		w := c.BodyWriter()
		switch string(c.Request.Path()) {
		case "/length":
			c.Response.Header.Set("Content-Length", "10")
			w.WriteString("hello")
		case "/chunked":
			w.WriteString("hello")
			w.Flush()
		}
		w.Abort()
		if _, err := w.WriteString("more"); err == nil || w.Err() == nil {
			t.Error("a write after Abort succeeded")
		}
	}})
	for _, path := range []string{"/length", "/chunked", "/unstarted"} {
		c := ts.connect()
		c.send(get(path))
		resp, err := http.ReadResponse(c.br, nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		body, err := io.ReadAll(resp.Body)
		want := map[string]string{"/length": "hello", "/chunked": "hello", "/unstarted": ""}[path]
		if resp.StatusCode != 200 || string(body) != want || path != "/unstarted" && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%s: %d %q %v, want %q cut short", path, resp.StatusCode, body, err, want)
		}
		c.expectClosed()
	}
}

// TestClientInterimHandler: the handler set with SetInterimHandler sees
// each 1xx but 100 with its fields; its error ends the exchange; without
// one the interim responses are skipped.
func TestClientInterimHandler(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
		var h Header
		h.Set("Link", "</a.css>; rel=preload")
		c.SendInterim(103, &h)
		c.SendInterim(102, nil)
		c.Response.WriteString("final")
	}})
	hc := ts.hostClient()
	var req Request
	var resp Response
	req.SetTarget("/")
	req.SetHost("x")
	var got []string
	req.SetInterimHandler(func(code int, h *Header) error {
		got = append(got, strings.TrimSpace(strconv.Itoa(code)+" "+string(h.Get("Link"))))
		return nil
	})
	if err := hc.Do(&req, &resp); err != nil || string(resp.Body()) != "final" {
		t.Fatalf("%v %q", err, resp.Body())
	}
	if strings.Join(got, "|") != "103 </a.css>; rel=preload|102" {
		t.Errorf("interim responses seen: %q", got)
	}
	stop := errors.New("stop")
	req.SetInterimHandler(func(int, *Header) error { return stop })
	if err := hc.Do(&req, &resp); !errors.Is(err, stop) || resp.StatusCode() != 0 {
		t.Errorf("handler error: %v, status %d", err, resp.StatusCode())
	}
	req.Reset()
	req.SetTarget("/")
	req.SetHost("x")
	if err := hc.Do(&req, &resp); err != nil || string(resp.Body()) != "final" {
		t.Errorf("after Reset: %v %q", err, resp.Body())
	}
}

// TestBodyStreamHijack: the connection of a 101 is handed over with the
// bytes read past its head; any other response is ErrNotSwitched.
func TestBodyStreamHijack(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
		if string(c.Request.Path()) != "/up" {
			c.Response.WriteString("plain")
			return
		}
		nc, _, err := c.Upgrade("echo")
		if err != nil {
			return
		}
		defer nc.Close()
		io.WriteString(nc, "first")
		io.Copy(nc, nc)
	}})
	hc := ts.hostClient()
	var req Request
	var resp Response
	var s BodyStream
	req.SetTarget("/plain")
	req.SetHost("x")
	if err := hc.DoStreamTo(context.Background(), &req, &resp, &s); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Hijack(); !errors.Is(err, ErrNotSwitched) {
		t.Errorf("Hijack of a 200: %v", err)
	}
	if b, err := io.ReadAll(&s); err != nil || string(b) != "plain" {
		t.Errorf("the 200's body after a refused Hijack: %q %v", b, err)
	}
	s.Close()
	req.SetTarget("/up")
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "echo")
	if err := hc.DoStreamTo(context.Background(), &req, &resp, &s); err != nil || resp.StatusCode() != 101 {
		t.Fatalf("%d %v", resp.StatusCode(), err)
	}
	nc, rest, err := s.Hijack()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	io.WriteString(nc, "!")
	buf := make([]byte, 6-len(rest))
	if _, err := io.ReadFull(nc, buf); err != nil || string(rest)+string(buf) != "first!" {
		t.Errorf("read %q + %q (%v)", rest, buf, err)
	}
	if _, _, err := s.Hijack(); !errors.Is(err, ErrNotSwitched) {
		t.Errorf("second Hijack: %v", err)
	}
}

// hostClient returns a HostClient whose connections go to ts.
func (ts *testServer) hostClient() *HostClient {
	return &HostClient{Addr: "x:80", ClientConfig: ClientConfig{
		Dial: func(context.Context, string, string) (net.Conn, error) { return ts.dial() }}}
}
