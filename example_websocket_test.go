package brisk_test

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
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
	key := c.Request.Header.Get("Sec-WebSocket-Key")
	if string(c.Request.Method()) != "GET" || len(key) != 24 {
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
	case !errors.As(err, new(ws.ProtocolError)):
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
	f, _ := ws.ReadFrame(conn)
	code, _ := ws.ParseCloseFrameData(f.Payload)
	fmt.Println(f.Header.OpCode == ws.OpClose, code)
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
