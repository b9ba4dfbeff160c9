package reverseproxy

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// echoUpgrade switches to the "echo" protocol and echoes bytes until EOF,
// after writing "hi>".
func echoUpgrade(c *brisk.Ctx) {
	c.Response.Header.Set("X-Switched", "1")
	nc, rest, err := c.Upgrade("echo")
	if err != nil {
		c.Response.SetStatusCode(400)
		return
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(testTimeout))
	io.WriteString(nc, "hi>")
	nc.Write(rest)
	io.Copy(nc, nc)
}

// TestProxyUpgrade: an upgrade the upstream accepts switches the client's
// connection, with the upstream's fields, and bytes flow both ways,
// including those the client sent right after its request; the client's
// half-close reaches the upstream and ends the tunnel.
func TestProxyUpgrade(t *testing.T) {
	p := &Proxy{Upstreams: []string{backend(t, echoUpgrade)}}
	record := records(t, p)
	addr := front(t, p)
	c := dial(t, addr)
	io.WriteString(c, "GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\nearly,")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 101 || resp.Header.Get("X-Switched") != "1" ||
		!strings.EqualFold(resp.Header.Get("Upgrade"), "echo") {
		t.Fatalf("response %+v (%v)", resp, err)
	}
	io.WriteString(c, "late")
	c.(*net.TCPConn).CloseWrite()
	got, err := io.ReadAll(br)
	if err != nil || string(got) != "hi>early,late" {
		t.Errorf("got %q (%v)", got, err)
	}
	if rec := record(1); !rec.Upgraded || rec.Status != 101 || rec.Err != nil {
		t.Errorf("record %+v", rec)
	}
}

// TestProxyUpgradeRefused: an upgrade the upstream does not take is an
// ordinary response; a 101 the client did not ask for is a 502.
func TestProxyUpgradeRefused(t *testing.T) {
	up := backend(t, func(c *brisk.Ctx) { c.Response.WriteString("plain") })
	resp, body, err := roundTrip(t, front(t, &Proxy{Upstreams: []string{up}}),
		"GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n")
	if err != nil || resp.StatusCode != 200 || body != "plain" {
		t.Errorf("%d %q %v", resp.StatusCode, body, err)
	}
	rogue := rawBackend(t, func(c net.Conn) {
		readHead(bufio.NewReader(c))
		io.WriteString(c, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\nrogue bytes")
	})
	resp, body, _ = roundTrip(t, front(t, &Proxy{Upstreams: []string{rogue}}), "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	if resp.StatusCode != 502 || strings.Contains(body, "rogue") {
		t.Errorf("unasked 101: %d %q", resp.StatusCode, body)
	}
}

// TestProxyUpgradeIdle: an upgraded connection idle for IdleTimeout in a
// direction is closed on both sides.
func TestProxyUpgradeIdle(t *testing.T) {
	p := &Proxy{Upstreams: []string{backend(t, echoUpgrade)}, IdleTimeout: 200 * time.Millisecond}
	c := dial(t, front(t, p))
	io.WriteString(c, "GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n")
	br := bufio.NewReader(c)
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 101 {
		t.Fatalf("%v %v", resp, err)
	}
	start := time.Now()
	got, _ := io.ReadAll(br)
	if string(got) != "hi>" || time.Since(start) > testTimeout/2 {
		t.Errorf("got %q after %v", got, time.Since(start))
	}
}

// TestProxyConnect: with Connect set, CONNECT tunnels to the connection
// it opens.
func TestProxyConnect(t *testing.T) {
	target := rawBackend(t, func(c net.Conn) { io.Copy(c, c) })
	p := &Proxy{Connect: func(c *brisk.Ctx) (net.Conn, error) {
		if string(c.Request.Host()) != "allowed:443" {
			return nil, io.ErrUnexpectedEOF
		}
		return net.Dial("tcp", strings.TrimPrefix(target, "http://"))
	}}
	addr := front(t, p)
	c := dial(t, addr)
	io.WriteString(c, "CONNECT allowed:443 HTTP/1.1\r\nHost: allowed:443\r\n\r\nping")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: "CONNECT"})
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %v", resp, err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(br, buf); err != nil || string(buf) != "ping" {
		t.Errorf("tunnel echoed %q (%v)", buf, err)
	}
	resp, _, _ = roundTrip(t, addr, "CONNECT other:443 HTTP/1.1\r\nHost: other:443\r\n\r\n")
	if resp.StatusCode != 502 {
		t.Errorf("refused target: %d", resp.StatusCode)
	}
}
