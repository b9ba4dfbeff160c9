package reverseproxy

import (
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
)

// echoFields answers with the request's method, target, Host and fields,
// one per line, so that a test sees what reached the backend.
func echoFields(c *brisk.Ctx) {
	r := &c.Request
	c.Response.WriteString(string(r.Method()) + " " + string(r.Target()) + "\nHost: " + string(r.Host()) + "\n")
	for name, v := range r.Header.All() {
		c.Response.WriteString(string(name) + ": " + string(v) + "\n")
	}
	body, _ := r.Body()
	c.Response.Write(body)
}

func TestProxyForwardsFields(t *testing.T) {
	p := &Proxy{Upstreams: []string{backend(t, echoFields)}}
	addr := front(t, p)
	resp, body, err := roundTrip(t, addr, "GET /a/b?q=1 HTTP/1.1\r\nHost: example.com\r\n"+
		"Connection: keep-alive, X-Hop\r\nX-Hop: secret\r\nKeep-Alive: timeout=5\r\n"+
		"Proxy-Authorization: Basic eA==\r\nTE: trailers, gzip\r\nX-Forwarded-For: 6.6.6.6\r\n"+
		"X-End: 1\r\n\r\n")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d, err %v", resp.StatusCode, err)
	}
	for _, want := range []string{"GET /a/b?q=1\n", "Host: example.com\n", "X-End: 1\n",
		"X-Forwarded-For: 127.0.0.1\n", "X-Forwarded-Proto: http\n", "X-Forwarded-Host: example.com\n",
		"Via: 1.1 brisk\n", "TE: trailers\n"} {
		if !strings.Contains(body, want) {
			t.Errorf("backend did not get %q:\n%s", want, body)
		}
	}
	for _, bad := range []string{"X-Hop", "Keep-Alive", "Proxy-Authorization", "6.6.6.6", "Connection", "gzip"} {
		if strings.Contains(body, bad) {
			t.Errorf("backend got %q:\n%s", bad, body)
		}
	}
	if got := resp.Header.Get("Via"); got != "1.1 brisk" {
		t.Errorf("response Via = %q", got)
	}
}
