package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// dialWS opens /ws on addr with gobwas/ws's client.
func dialWS(t *testing.T, addr string) net.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	nc, br, _, err := ws.Dial(ctx, "ws://"+addr+"/ws")
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	if br != nil {
		t.Fatal("the server sent frames before the client")
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	return nc
}

// clientFrame is a frame as a client sends it: masked.
func clientFrame(op ws.OpCode, fin bool, payload string) ws.Frame {
	return ws.MaskFrame(ws.NewFrame(op, fin, []byte(payload)))
}

// readFrame reads one frame from the server, refusing a payload over 2
// MiB (ws.ReadFrame, deprecated by gobwas/ws v1.5.0, reads any length).
func readFrame(r io.Reader) (ws.Frame, error) {
	h, err := ws.ReadHeader(r)
	if err != nil {
		return ws.Frame{}, err
	}
	if h.Length > 2<<20 {
		return ws.Frame{Header: h}, fmt.Errorf("a frame of %d bytes", h.Length)
	}
	f := ws.Frame{Header: h, Payload: make([]byte, h.Length)}
	_, err = io.ReadFull(r, f.Payload)
	return f, err
}

// readClose reads server frames up to a Close frame and returns its status
// code (0 for an empty Close frame); the data frames and pongs before it
// are returned too.
func readClose(t *testing.T, nc net.Conn) (ws.StatusCode, []ws.Frame) {
	t.Helper()
	var before []ws.Frame
	for {
		f, err := readFrame(nc)
		if err != nil {
			t.Fatalf("no Close frame (after %d frames): %v", len(before), err)
		}
		if f.Header.Masked {
			t.Fatal("the server sent a masked frame")
		}
		if f.Header.OpCode == ws.OpClose {
			code, _ := ws.ParseCloseFrameData(f.Payload)
			return code, before
		}
		before = append(before, f)
	}
}

// TestWebSocketEcho opens /ws with gobwas/ws's client and gets a text
// and a binary message echoed; a GET without a handshake is answered 426
// (Upgrade Required) with "Upgrade: websocket".
func TestWebSocketEcho(t *testing.T) {
	addr := startSite(t, Config{})
	nc := dialWS(t, addr)
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
	if resp, _ := rawGet(t, addr, "GET", "/ws"); resp.StatusCode != 426 || resp.Header.Get("Upgrade") != "websocket" {
		t.Errorf("GET /ws without a handshake: %d, Upgrade %q; want 426, websocket", resp.StatusCode, resp.Header.Get("Upgrade"))
	}
}

// TestWebSocketCloseCodes sends frames a server must refuse, or answer,
// and checks the status code of the server's Close frame (RFC 6455
// §7.4.1) and the frames before it. The message limit is 1000 bytes.
func TestWebSocketCloseCodes(t *testing.T) {
	const limit = 1000
	big := string(bytes.Repeat([]byte("a"), 600))
	tests := []struct {
		name   string
		frames []ws.Frame
		code   ws.StatusCode
		echoed []string // payloads of the frames before the Close
	}{
		{"too_big_one_frame", []ws.Frame{clientFrame(ws.OpBinary, true, big+big)}, ws.StatusMessageTooBig, nil},
		{"too_big_fragments", []ws.Frame{clientFrame(ws.OpText, false, big), clientFrame(ws.OpContinuation, true, big)}, ws.StatusMessageTooBig, nil},
		{"too_big_after_small", []ws.Frame{clientFrame(ws.OpText, true, "ok"), clientFrame(ws.OpText, true, big+big)}, ws.StatusMessageTooBig, []string{"ok"}},
		{"at_limit", []ws.Frame{clientFrame(ws.OpText, false, big), clientFrame(ws.OpContinuation, true, big[:limit-600]),
			clientFrame(ws.OpClose, true, string(ws.NewCloseFrameBody(ws.StatusNormalClosure, "")))},
			ws.StatusNormalClosure, []string{big + big[:limit-600]}},
		{"fragmented_ping", []ws.Frame{clientFrame(ws.OpPing, false, "p")}, ws.StatusProtocolError, nil},
		{"fragmented_close", []ws.Frame{clientFrame(ws.OpClose, false, "")}, ws.StatusProtocolError, nil},
		{"long_ping", []ws.Frame{clientFrame(ws.OpPing, true, big[:126])}, ws.StatusProtocolError, nil},
		{"unmasked", []ws.Frame{ws.NewTextFrame([]byte("x"))}, ws.StatusProtocolError, nil},
		{"rsv1", []ws.Frame{ws.MaskFrame(ws.Frame{Header: ws.Header{Fin: true, Rsv: ws.Rsv(true, false, false), OpCode: ws.OpText, Length: 1}, Payload: []byte("x")})},
			ws.StatusProtocolError, nil},
		{"reserved_opcode", []ws.Frame{clientFrame(ws.OpCode(3), true, "x")}, ws.StatusProtocolError, nil},
		{"continuation_first", []ws.Frame{clientFrame(ws.OpContinuation, true, "x")}, ws.StatusProtocolError, nil},
		{"text_in_fragments", []ws.Frame{clientFrame(ws.OpText, false, "x"), clientFrame(ws.OpText, true, "y")}, ws.StatusProtocolError, nil},
		{"invalid_utf8", []ws.Frame{clientFrame(ws.OpText, true, "ok \xff")}, ws.StatusInvalidFramePayloadData, nil},
		{"invalid_utf8_split", []ws.Frame{clientFrame(ws.OpText, false, "\xe2\x82"), clientFrame(ws.OpContinuation, true, "(")},
			ws.StatusInvalidFramePayloadData, nil},
		{"utf8_split_valid", []ws.Frame{clientFrame(ws.OpText, false, "\xe2\x82"), clientFrame(ws.OpContinuation, true, "\xac"),
			clientFrame(ws.OpClose, true, string(ws.NewCloseFrameBody(ws.StatusGoingAway, "bye")))},
			ws.StatusGoingAway, []string{"€"}},
		{"ping_between_fragments", []ws.Frame{clientFrame(ws.OpText, false, "a"), clientFrame(ws.OpPing, true, "p"),
			clientFrame(ws.OpContinuation, true, "b"), clientFrame(ws.OpClose, true, "")},
			0, []string{"p", "ab"}}, // an empty Close is answered with an empty one
		{"close_code_invalid", []ws.Frame{clientFrame(ws.OpClose, true, string(ws.NewCloseFrameBody(999, "")))}, ws.StatusProtocolError, nil},
	}
	addr := startSite(t, Config{WebSocketMaxMessage: limit})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nc := dialWS(t, addr)
			for _, f := range tt.frames {
				if err := ws.WriteFrame(nc, f); err != nil {
					t.Fatal(err)
				}
			}
			code, before := readClose(t, nc)
			if code != tt.code {
				t.Errorf("Close status %d, want %d", code, tt.code)
			}
			var got []string
			for _, f := range before {
				got = append(got, string(f.Payload))
			}
			if !slices.Equal(got, tt.echoed) {
				t.Errorf("frames before the Close: %.40q, want %.40q", got, tt.echoed)
			}
			if _, err := readFrame(nc); !errors.Is(err, io.EOF) {
				t.Errorf("after the Close frame: %v, want EOF", err)
			}
		})
	}
}

// TestWebSocketHugeFrame: a frame whose header claims 1 GiB is refused
// with 1009 before any of its payload is sent, and the server allocates
// next to nothing for it.
func TestWebSocketHugeFrame(t *testing.T) {
	addr := startSite(t, Config{})
	nc := dialWS(t, addr)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := ws.WriteHeader(nc, ws.Header{Fin: true, OpCode: ws.OpBinary, Masked: true, Mask: ws.NewMask(), Length: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := readClose(t, nc); code != ws.StatusMessageTooBig {
		t.Errorf("Close status %d, want %d", code, ws.StatusMessageTooBig)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
		t.Errorf("%d MiB allocated while refusing the frame", n>>20)
	}
}

// TestWebSocketIdle: the server pings within the idle timeout; a client
// that answers the pings stays connected past it, and one that stops
// answering is closed with 1001 about the idle timeout after its last
// frame.
func TestWebSocketIdle(t *testing.T) {
	const idle = 600 * time.Millisecond
	addr := startSite(t, Config{WebSocketIdleTimeout: idle})
	nc := dialWS(t, addr)
	pings := 0
	for end := time.Now().Add(2 * idle); time.Now().Before(end); pings++ {
		f, err := readFrame(nc)
		if err != nil || f.Header.OpCode != ws.OpPing {
			t.Fatalf("frame %v, %v; want a Ping", f.Header.OpCode, err)
		}
		if err := ws.WriteFrame(nc, clientFrame(ws.OpPong, true, string(f.Payload))); err != nil {
			t.Fatal(err)
		}
	}
	last := time.Now()
	code, before := readClose(t, nc)
	d := time.Since(last)
	if code != ws.StatusGoingAway {
		t.Errorf("Close status %d, want %d", code, ws.StatusGoingAway)
	}
	for _, f := range before {
		if f.Header.OpCode != ws.OpPing {
			t.Errorf("frame %v before the Close, want pings only", f.Header.OpCode)
		}
	}
	if pings < 3 || d < idle/2 || d > idle+time.Second {
		t.Errorf("%d pings answered; closed %v after the last pong, want about %v", pings, d, idle)
	}
}

// TestWebSocketHead: a HEAD with a complete WebSocket handshake is not
// upgraded (RFC 6455 §4.1: the handshake is a GET); it gets 405 with
// "Allow: GET", not 101 and a hijacked connection.
func TestWebSocketHead(t *testing.T) {
	addr := startSite(t, Config{})
	resp, _ := rawExchange(t, addr, "HEAD", "HEAD /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET" || resp.Header.Get("Upgrade") != "" {
		t.Errorf("HEAD /ws with a handshake: %d, Allow %q, Upgrade %q; want 405, GET and none",
			resp.StatusCode, resp.Header.Get("Allow"), resp.Header.Get("Upgrade"))
	}
}

// TestWebSocketHugeLimit: a limit as large as an int64 goes (no limit in
// practice) still echoes messages.
func TestWebSocketHugeLimit(t *testing.T) {
	addr := startSite(t, Config{WebSocketMaxMessage: math.MaxInt64})
	nc := dialWS(t, addr)
	data := bytes.Repeat([]byte("h"), 10000)
	if err := wsutil.WriteClientBinary(nc, data); err != nil {
		t.Fatal(err)
	}
	if got, err := wsutil.ReadServerBinary(nc); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("echo of %d bytes: %d bytes, %v", len(data), len(got), err)
	}
}
