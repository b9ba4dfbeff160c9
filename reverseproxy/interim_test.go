package reverseproxy

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestProxyEarlyHints: a 103 the upstream sends reaches the client before
// the final response, with its Link fields.
func TestProxyEarlyHints(t *testing.T) {
	up := backend(t, func(c *brisk.Ctx) {
		var h brisk.Header
		h.Set("Link", "</style.css>; rel=preload")
		c.SendInterim(103, &h)
		c.Response.WriteString("final")
	})
	c := dial(t, front(t, &Proxy{Upstreams: []string{up}}))
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	tp := textproto.NewReader(bufio.NewReader(c))
	line, err := tp.ReadLine()
	if err != nil || line != "HTTP/1.1 103 Early Hints" {
		t.Fatalf("first line %q (%v)", line, err)
	}
	h, err := tp.ReadMIMEHeader()
	if err != nil || h.Get("Link") != "</style.css>; rel=preload" {
		t.Fatalf("103 fields %v (%v)", h, err)
	}
	resp, err := http.ReadResponse(tp.R, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("final %v (%v)", resp, err)
	}
}

// TestProxyExpectContinue: "Expect: 100-continue" goes end to end: the
// client gets 100 (Continue) only when the upstream sends it, and an
// upstream that refuses first gets no body while the client gets the
// refusal without a 100.
func TestProxyExpectContinue(t *testing.T) {
	up := backend(t, func(c *brisk.Ctx) {
		if c.Request.ContentLength() > 10 {
			c.Response.SetStatusCode(413)
			return
		}
		b, _ := c.Request.Body() // sends 100 (Continue)
		c.Response.Write(b)
	})
	addr := front(t, &Proxy{Upstreams: []string{up}})

	c := dial(t, addr)
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
	br := bufio.NewReader(c)
	line, err := br.ReadString('\n')
	if err != nil || line != "HTTP/1.1 100 Continue\r\n" {
		t.Fatalf("first line %q (%v)", line, err)
	}
	readHead(br)
	io.WriteString(c, "hello")
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("final %v (%v)", resp, err)
	}
	if b, _ := io.ReadAll(io.LimitReader(resp.Body, 5)); string(b) != "hello" {
		t.Errorf("body %q", b)
	}

	c = dial(t, addr)
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 50\r\n\r\n")
	c.SetReadDeadline(time.Now().Add(testTimeout))
	br = bufio.NewReader(c)
	line, err = br.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 413 ") {
		t.Fatalf("first line %q (%v), want a 413 without a 100", line, err)
	}
	var _ net.Conn = c
}
