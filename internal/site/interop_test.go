package site

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// TestWebSocketEcho opens /ws with gobwas/ws's client and gets a text
// and a binary message echoed; a GET without a handshake is answered 400.
func TestWebSocketEcho(t *testing.T) {
	addr := startSite(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	nc, _, _, err := ws.Dial(ctx, "ws://"+addr+"/ws")
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	for _, m := range []struct {
		op   ws.OpCode
		data []byte
	}{{ws.OpText, []byte("hello")}, {ws.OpBinary, bytes.Repeat([]byte{0, 255}, 40000)}} {
		if err := wsutil.WriteClientMessage(nc, m.op, m.data); err != nil {
			t.Fatal(err)
		}
		got, op, err := wsutil.ReadServerData(nc)
		if err != nil || op != m.op || !bytes.Equal(got, m.data) {
			t.Fatalf("echo: op %v, %d bytes, %v", op, len(got), err)
		}
	}
	if resp, _ := rawGet(t, addr, "GET", "/ws"); resp.StatusCode != 400 {
		t.Errorf("GET /ws without a handshake: %d, want 400", resp.StatusCode)
	}
}

// TestPprofIndex checks that /debug/pprof/ serves net/http/pprof's index.
func TestPprofIndex(t *testing.T) {
	addr := startSite(t, Config{})
	resp, body := rawGet(t, addr, "GET", "/debug/pprof/")
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte("Types of profiles available")) {
		t.Errorf("/debug/pprof/: %d %.100q", resp.StatusCode, body)
	}
	if resp, body := rawGet(t, addr, "GET", "/debug/pprof/heap?debug=1"); resp.StatusCode != 200 || !bytes.HasPrefix(body, []byte("heap profile:")) {
		t.Errorf("heap: %d %.100q", resp.StatusCode, body)
	}
}

// TestWebSocketHead: a HEAD with a complete WebSocket handshake is not
// upgraded (RFC 6455 §4.1: the handshake is a GET); it gets the 400 of a
// bad handshake, not 101 and a hijacked connection.
func TestWebSocketHead(t *testing.T) {
	addr := startSite(t, Config{})
	resp, _ := rawExchange(t, addr, "HEAD", "HEAD /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
	if resp.StatusCode != 400 || resp.Header.Get("Upgrade") != "" {
		t.Errorf("HEAD /ws with a handshake: %d, Upgrade %q; want 400 and none", resp.StatusCode, resp.Header.Get("Upgrade"))
	}
}
