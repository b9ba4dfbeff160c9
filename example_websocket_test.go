package brisk_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"errors"
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
	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// The README's WebSocket example, exactly (TestREADMEWebSocketExample).

// wsEcho echoes WebSocket messages (RFC 6455). A message over 1 MiB is
// refused with Close 1009 before its payload is read, a protocol error
// gets 1002, invalid UTF-8 in a text message 1007, and a client that sends
// no message for a minute 1001 (pings do not count).
func wsEcho(c *brisk.Ctx) { // routed as "GET /ws"; a HEAD must not upgrade
	const maxMessage, idle = 1 << 20, time.Minute
	key, version := c.Request.Header.Get("Sec-WebSocket-Key"), c.Request.Header.Get("Sec-WebSocket-Version")
	if string(c.Request.Method()) != "GET" || len(key) != 24 || string(version) != "13" {
		c.Response.Header.Set("Sec-WebSocket-Version", "13") // the version spoken (RFC 6455 §4.2.2)
		c.Response.SetStatusCode(400)
		return
	}
	accept := sha1.Sum([]byte(string(key) + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	c.Response.Header.Set("Sec-WebSocket-Accept", base64.StdEncoding.EncodeToString(accept[:]))
	nc, buffered, err := c.Upgrade("websocket")
	if err != nil {
		c.Response.SetStatusCode(426)
		return
	}
	defer nc.Close()
	control := func(h ws.Header, r io.Reader) error { // answers ping and close
		err := wsutil.ControlHandler{Src: r, Dst: nc, State: ws.StateServerSide, DisableSrcCiphering: true}.Handle(h)
		if h.OpCode == ws.OpClose {
			return wsutil.ClosedError{}
		}
		return err
	}
	var size int64 // of the message being read: its frames so far
	rd := wsutil.Reader{Source: io.MultiReader(bytes.NewReader(buffered), nc), State: ws.StateServerSide,
		CheckUTF8: true, OnIntermediate: control, OnContinuation: func(h ws.Header, _ io.Reader) error {
			if size += h.Length; size > maxMessage {
				return wsutil.ErrFrameTooLarge
			}
			return nil
		}}
	nc.SetDeadline(time.Now().Add(idle))
	for err == nil {
		var h ws.Header
		var msg []byte
		switch h, err = rd.NextFrame(); {
		case err != nil:
		case h.OpCode.IsControl():
			err = control(h, &rd)
		case h.Length > maxMessage: // checked before the payload is read
			err = wsutil.ErrFrameTooLarge
		default:
			size = h.Length
			if msg, err = io.ReadAll(&rd); err == nil {
				err = wsutil.WriteServerMessage(nc, h.OpCode, msg)
				nc.SetDeadline(time.Now().Add(idle))
			}
		}
	}
	wsClose(nc, err)
}

// wsClose sends the Close frame that err calls for (RFC 6455 §7.4.1), if
// any, and lets the client read it before the connection is closed.
func wsClose(nc net.Conn, err error) {
	code := ws.StatusProtocolError
	switch {
	case errors.Is(err, wsutil.ErrFrameTooLarge):
		code = ws.StatusMessageTooBig
	case errors.Is(err, wsutil.ErrInvalidUTF8):
		code = ws.StatusInvalidFramePayloadData
	case errors.Is(err, os.ErrDeadlineExceeded):
		code = ws.StatusGoingAway
	case !errors.As(err, new(ws.ProtocolError)) && !errors.Is(err, ws.ErrHeaderLengthMSB):
		return // the client's Close was answered, or the connection failed
	}
	nc.SetDeadline(time.Now().Add(time.Second))
	ws.WriteFrame(nc, ws.NewCloseFrame(ws.NewCloseFrameBody(code, "")))
	if tc, ok := nc.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
	}
	io.CopyN(io.Discard, nc, 1<<20) // until the client closes: no reset
}

// ExampleCtx_Upgrade_webSocket serves the README's WebSocket echo and
// talks to it with gobwas/ws's client: a message is echoed, and a frame
// whose header claims 1 GiB is refused with Close 1009 before any of it
// is sent.
func ExampleCtx_Upgrade_webSocket() {
	r := router.New()
	r.Handle("GET /ws", wsEcho)
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
// reports it as ws.ErrHeaderLengthMSB, not a ws.ProtocolError, and the
// example used to close the connection without a Close frame.
func TestREADMEWebSocketLengthMSB(t *testing.T) {
	r := router.New()
	r.Handle("GET /ws", wsEcho)
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
// Sec-WebSocket-Version), as cmd/brisk/internal/site's /ws does; it used to switch
// protocols for any version.
func TestREADMEWebSocketVersion(t *testing.T) {
	r := router.New()
	r.Handle("GET /ws", wsEcho)
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
