package brisk

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestToHTTP mounts brisk handlers in a net/http mux and checks what the
// brisk handler sees (method, target, fields, body, remote address) and
// what the net/http client gets (status, fields, streamed body,
// trailers), and an upgrade through the bridge.
func TestToHTTP(t *testing.T) {
	events := make(chan struct{})
	mux := http.NewServeMux()
	mux.Handle("/echo", ToHTTP(func(c *Ctx) {
		body, err := c.Request.Body()
		c.Response.Header.Set("X-Seen", fmt.Sprintf("%s %s %s %v", c.Request.Method(), c.Request.Target(), c.Request.Header.Get("X-In"), c.RemoteAddr().String() != ""))
		c.Response.SetStatusCode(201)
		fmt.Fprintf(&c.Response, "%s|%v", body, err)
	}))
	mux.Handle("/stream", ToHTTP(func(c *Ctx) {
		c.Response.Header.Set("Content-Type", "text/event-stream")
		w := c.BodyWriter()
		w.WriteString("data: one\n\n")
		w.Flush()
		<-events
		w.WriteString("data: two\n\n")
		c.Response.Trailer.Set("X-Done", "yes")
	}))
	mux.Handle("/up", ToHTTP(func(c *Ctx) {
		nc, buffered, err := c.Upgrade("echo")
		if err != nil {
			c.Response.SetStatusCode(426)
			return
		}
		defer nc.Close()
		line, _ := bufio.NewReader(io.MultiReader(strings.NewReader(string(buffered)), nc)).ReadString('\n')
		io.WriteString(nc, "echo "+line)
	}))
	ts := httptest.NewServer(mux)
	defer ts.Close()

	resp, err := http.Post(ts.URL+"/echo?q=1", "text/plain", strings.NewReader("payload"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 201 || string(body) != "payload|<nil>" || resp.Header.Get("X-Seen") != "POST /echo?q=1  true" {
		t.Errorf("echo: %d %q %q", resp.StatusCode, body, resp.Header.Get("X-Seen"))
	}
	if resp.Header.Get("Content-Length") != "13" {
		t.Errorf("Content-Length %q, want 13", resp.Header.Get("Content-Length"))
	}

	resp, err = http.Get(ts.URL + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	first := make(chan string, 1)
	go func() { l, _ := br.ReadString('\n'); first <- l }()
	select {
	case l := <-first:
		if l != "data: one\n" {
			t.Errorf("first event %q", l)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("first event did not arrive before the second was written")
	}
	close(events)
	rest, _ := io.ReadAll(br)
	resp.Body.Close()
	if string(rest) != "\ndata: two\n\n" || resp.Trailer.Get("X-Done") != "yes" {
		t.Errorf("rest %q, trailer %v", rest, resp.Trailer)
	}

	nc, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(nc, "GET /up HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\nhi\n")
	raw, _ := io.ReadAll(nc)
	if got := stripDate(string(raw)); got != "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\necho hi\n" {
		t.Errorf("upgrade got %q", got)
	}
}
