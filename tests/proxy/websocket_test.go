package proxy

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"io"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// wsEchoServer echoes WebSocket messages (gobwas/ws on the upgraded
// connection) until the client closes.
func wsEchoServer(c *brisk.Ctx) {
	key := c.Request.Header.Get("Sec-WebSocket-Key")
	accept := sha1.Sum([]byte(string(key) + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	c.Response.Header.Set("Sec-WebSocket-Accept", base64.StdEncoding.EncodeToString(accept[:]))
	nc, rest, err := c.Upgrade("websocket")
	if err != nil {
		c.Response.SetStatusCode(426)
		return
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	rw := struct {
		io.Reader
		io.Writer
	}{io.MultiReader(bytes.NewReader(rest), nc), nc}
	for {
		msg, op, err := wsutil.ReadClientData(rw)
		if err != nil {
			return
		}
		if err := wsutil.WriteServerMessage(nc, op, msg); err != nil {
			return
		}
	}
}

// TestWebSocketThroughProxy: a WebSocket client (gobwas/ws) reaches a
// WebSocket upstream through the proxy; messages of several sizes, 64 KiB
// included, are echoed in order, and the close handshake goes through.
func TestWebSocketThroughProxy(t *testing.T) {
	up := testserver.Start(t, testserver.Quiet(&brisk.Server{Handler: wsEchoServer}))
	addr := startProxy(t, "http://"+up)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, br, _, err := ws.Dialer{}.Dial(ctx, "ws://"+addr+"/ws")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	var r io.Reader = conn
	if br != nil {
		r = io.MultiReader(br, conn)
	}
	rw := struct {
		io.Reader
		io.Writer
	}{r, conn}
	for _, size := range []int{1, 125, 126, 65535, 65536, 200000} {
		msg := bytes.Repeat([]byte{'a' + byte(size%26)}, size)
		if err := wsutil.WriteClientMessage(conn, ws.OpBinary, msg); err != nil {
			t.Fatalf("write %d: %v", size, err)
		}
		got, op, err := wsutil.ReadServerData(rw)
		if err != nil || op != ws.OpBinary || !bytes.Equal(got, msg) {
			t.Fatalf("echo of %d bytes: %d bytes op %v (%v)", size, len(got), op, err)
		}
	}
	if err := wsutil.WriteClientMessage(conn, ws.OpClose, ws.NewCloseFrameBody(ws.StatusNormalClosure, "")); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(conn); err != nil {
		t.Errorf("after close: %v", err)
	}
}
