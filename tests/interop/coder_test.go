package interop

import (
	"context"
	"net/http"
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
