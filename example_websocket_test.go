package brisk_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/router"
	"github.com/brisk-http/brisk/websocket"
	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// The README's WebSocket example, exactly (TestREADMEWebSocketExample).

// wsEcho echoes WebSocket messages (RFC 6455) with package websocket's
// limits: a message over 1 MiB is refused with Close 1009 before its
// payload is read, a protocol error gets 1002, invalid UTF-8 in a text
// message 1007, and a client that answers no ping for a minute 1001.
func wsEcho(conn *websocket.Conn) { // routed as "GET /ws" with websocket.Handler
	for typ, msg := range conn.Messages() {
		conn.WriteMessage(typ, msg)
	}
}

// ExampleCtx_Upgrade_webSocket serves the README's WebSocket echo
// (package websocket on Ctx.Upgrade) and talks to it with gobwas/ws's
// client: a message is echoed, and a frame whose header claims 1 GiB is
// refused with Close 1009 before any of it is sent.
func ExampleCtx_Upgrade_webSocket() {
	r := router.New()
	r.Handle("GET /ws", websocket.Handler(nil, wsEcho))
	srv := &brisk.Server{Handler: r.Serve}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	d := ws.Dialer{NetDial: func(context.Context, string, string) (net.Conn, error) { return ln.Dial() }}
	conn, _, _, err := d.Dial(context.Background(), "ws://example.com/ws")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer conn.Close()
	wsutil.WriteClientText(conn, []byte("hello"))
	msg, _ := wsutil.ReadServerText(conn)
	fmt.Println(string(msg))

	ws.WriteHeader(conn, ws.Header{Fin: true, OpCode: ws.OpBinary, Masked: true, Length: 1 << 30})
	h, _ := ws.ReadHeader(conn) // a Close frame's payload is at most 125 bytes
	payload := make([]byte, min(h.Length, 125))
	io.ReadFull(conn, payload)
	code, _ := ws.ParseCloseFrameData(payload)
	fmt.Println(h.OpCode == ws.OpClose, code)
	// Output:
	// hello
	// true 1009
}

// TestREADMEWebSocketExample: the README's WebSocket example is the code
// above, byte for byte, so that it compiles as written.
func TestREADMEWebSocketExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "\n```go\n// wsEcho ")
	block, _, closed := strings.Cut(rest, "\n```\n")
	if !ok || !closed {
		t.Fatal("README.md has no Go block starting with \"// wsEcho \"")
	}
	block = "// wsEcho " + block + "\n"
	src, err := os.ReadFile("example_websocket_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "\n\n"+block+"\n") {
		t.Errorf("README.md's WebSocket example differs from the code in example_websocket_test.go:\n%s", block)
	}
}

// TestREADMEWebSocketLengthMSB: the README's echo answers a frame whose
// 64-bit payload length has its most significant bit set (RFC 6455 §5.2:
// it must be 0) with Close 1002, as cmd/brisk/internal/site's /ws does. gobwas/ws
// reports it as ws.ErrHeaderLengthMSB, not a ws.ProtocolError, and an
// earlier hand-written example closed the connection without a Close
// frame.
func TestREADMEWebSocketLengthMSB(t *testing.T) {
	r := router.New()
	r.Handle("GET /ws", websocket.Handler(nil, wsEcho))
	srv := &brisk.Server{Handler: r.Serve}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	d := ws.Dialer{NetDial: func(context.Context, string, string) (net.Conn, error) { return ln.Dial() }}
	conn, _, _, err := d.Dial(context.Background(), "ws://example.com/ws")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	// FIN, binary; masked, 64-bit length 1<<63 | 1; mask.
	if _, err := conn.Write([]byte{0x82, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	h, err := ws.ReadHeader(conn)
	if err != nil {
		t.Fatalf("no Close frame: %v", err)
	}
	payload := make([]byte, min(h.Length, 125))
	if _, err := io.ReadFull(conn, payload); err != nil {
		t.Fatal(err)
	}
	if code, _ := ws.ParseCloseFrameData(payload); h.OpCode != ws.OpClose || code != ws.StatusProtocolError {
		t.Errorf("frame %v, status %d; want Close 1002", h.OpCode, code)
	}
}

// TestREADMEWebSocketVersion: the README's echo refuses a handshake for a
// WebSocket version other than 13 with an error naming the version it
// speaks (RFC 6455 §4.2.2: the server MUST abort the handshake and send
// Sec-WebSocket-Version), as cmd/brisk/internal/site's /ws does.
func TestREADMEWebSocketVersion(t *testing.T) {
	r := router.New()
	r.Handle("GET /ws", websocket.Handler(nil, wsEcho))
	srv := &brisk.Server{Handler: r.Serve}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	nc, err := ln.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(nc, "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == 101 || resp.Header.Get("Sec-WebSocket-Version") != "13" {
		t.Errorf("version 8: %d, Sec-WebSocket-Version %q; want an error and 13", resp.StatusCode, resp.Header.Get("Sec-WebSocket-Version"))
	}
}
