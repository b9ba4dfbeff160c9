package interop

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/coder/websocket"
)

// TestWebSocketCoder serves a coder/websocket echo through FromHTTP: its
// Accept writes the 101 with WriteHeader and then hijacks, the other
// order from gorilla's.
func TestWebSocketCoder(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(4 << 20)
		for {
			typ, msg, err := c.Read(r.Context())
			if err != nil {
				return
			}
			if err := c.Write(r.Context(), typ, msg); err != nil {
				return
			}
		}
	})
	addr := serve(t, &brisk.Server{Handler: brisk.FromHTTP(h)})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, "ws://"+addr+"/", nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer c.CloseNow()
	if resp.StatusCode != 101 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	c.SetReadLimit(4 << 20)
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = byte(i % 251)
	}
	for _, m := range []struct {
		typ  websocket.MessageType
		data []byte
	}{{websocket.MessageText, []byte("hello")}, {websocket.MessageBinary, big}} {
		if err := c.Write(ctx, m.typ, m.data); err != nil {
			t.Fatal(err)
		}
		typ, got, err := c.Read(ctx)
		if err != nil || typ != m.typ || string(got) != string(m.data) {
			t.Fatalf("echo of %d bytes: type %v, %d bytes, %v", len(m.data), typ, len(got), err)
		}
	}
	c.CloseRead(ctx) // a reader for the pong (data messages are no longer expected)
	if err := c.Ping(ctx); err != nil {
		t.Errorf("ping: %v", err)
	}
	if err := c.Close(websocket.StatusNormalClosure, "bye"); err != nil {
		t.Errorf("close handshake: %v", err)
	}
}

// TestWebSocketCoderClient: coder/websocket's client against package
// websocket's echo, in each of its compression modes (context takeover
// is declined by the server's response, which the client must accept):
// a compressible 1.5 MiB message echoed, and Close 1009 for a message
// over the limit.
func TestWebSocketCoderClient(t *testing.T) {
	addr := serve(t, &brisk.Server{Handler: briskEcho})
	for _, mode := range []websocket.CompressionMode{websocket.CompressionDisabled,
		websocket.CompressionNoContextTakeover, websocket.CompressionContextTakeover} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, resp, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{CompressionMode: mode})
		if err != nil {
			t.Fatalf("mode %v: dial: %v", mode, err)
		}
		defer c.CloseNow()
		if ext := resp.Header.Get("Sec-WebSocket-Extensions"); (mode == websocket.CompressionDisabled) != (ext == "") {
			t.Errorf("mode %v: Sec-WebSocket-Extensions %q", mode, ext)
		}
		c.SetReadLimit(8 << 20)
		big := []byte(strings.Repeat("coder ", 1<<18))
		if err := c.Write(ctx, websocket.MessageBinary, big); err != nil {
			t.Fatal(err)
		}
		if typ, got, err := c.Read(ctx); err != nil || typ != websocket.MessageBinary || string(got) != string(big) {
			t.Fatalf("mode %v: echo: %v, %d bytes, %v", mode, typ, len(got), err)
		}
		if err := c.Write(ctx, websocket.MessageBinary, make([]byte, 5<<20)); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Read(ctx); websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
			t.Errorf("mode %v: over the limit: %v, want Close 1009", mode, err)
		}
	}
}
