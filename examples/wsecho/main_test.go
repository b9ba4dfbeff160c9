package main

import (
	"context"
	"io"
	"net"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/websocket"
	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// TestEcho: the server echoes a text and a binary message, and closes
// with 1009 a message over the 1 MiB default.
func TestEcho(t *testing.T) {
	srv := &brisk.Server{Handler: websocket.Handler(nil, echo)}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	d := ws.Dialer{NetDial: func(context.Context, string, string) (net.Conn, error) { return ln.Dial() }}
	conn, _, _, err := d.Dial(context.Background(), "ws://localhost:8080/")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	for _, op := range []ws.OpCode{ws.OpText, ws.OpBinary} {
		wsutil.WriteClientMessage(conn, op, []byte("hello"))
		msg, gotOp, err := wsutil.ReadServerData(conn)
		if err != nil || gotOp != op || string(msg) != "hello" {
			t.Errorf("echo of a %v message: %v %q, %v", op, gotOp, msg, err)
		}
	}
	ws.WriteHeader(conn, ws.Header{Fin: true, OpCode: ws.OpBinary, Masked: true, Length: 1<<20 + 1})
	h, err := ws.ReadHeader(conn)
	payload := make([]byte, min(h.Length, 125)) // a Close frame's payload is at most 125 bytes
	io.ReadFull(conn, payload)
	if code, _ := ws.ParseCloseFrameData(payload); err != nil || h.OpCode != ws.OpClose || code != ws.StatusMessageTooBig {
		t.Errorf("message over 1 MiB: %v %d, %v; want Close 1009", h.OpCode, code, err)
	}
}
