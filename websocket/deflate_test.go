package websocket_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/brisk-http/brisk/websocket"
	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsflate"
)

// compressedFrame is a masked, compressed client message (RFC 7692 §7.2.1).
func compressedFrame(t *testing.T, op ws.OpCode, payload []byte) []byte {
	t.Helper()
	f, err := wsflate.CompressFrame(ws.NewFrame(op, true, payload))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ws.CompileFrame(ws.MaskFrameInPlace(f))
	return b
}

// TestDeflateNegotiation: the first valid permessage-deflate offer is
// accepted with no context takeover; invalid ones are skipped; without
// Options.Compression none is.
func TestDeflateNegotiation(t *testing.T) {
	const accepted = "permessage-deflate; server_no_context_takeover; client_no_context_takeover"
	for _, tc := range []struct{ offer, want string }{
		{"permessage-deflate", accepted},
		{"permessage-deflate; client_max_window_bits", accepted},
		{"permessage-deflate; client_max_window_bits=10; server_no_context_takeover", accepted},
		{"permessage-deflate; server_max_window_bits=10", accepted + "; server_max_window_bits=10"},
		{`permessage-deflate; server_max_window_bits="12"`, accepted + "; server_max_window_bits=12"},
		{"permessage-deflate; server_max_window_bits=7, permessage-deflate", accepted},
		{"permessage-deflate; unknown_param", ""},
		{"permessage-deflate; client_no_context_takeover; client_no_context_takeover", ""},
		{"permessage-deflate; server_max_window_bits", ""},
		{"x-webkit-deflate-frame", ""},
	} {
		ln := serve(t, websocket.Handler(&websocket.Options{Compression: true}, echo))
		c := dial(t, ln, handshake("Sec-WebSocket-Extensions: "+tc.offer+"\r\n"))
		if got := c.resp.Header.Get("Sec-WebSocket-Extensions"); c.resp.StatusCode != 101 || got != tc.want {
			t.Errorf("offer %q: %d %q, want %q", tc.offer, c.resp.StatusCode, got, tc.want)
		}
	}
	ln := serve(t, websocket.Handler(nil, echo))
	if c := dial(t, ln, handshake("Sec-WebSocket-Extensions: permessage-deflate\r\n")); c.resp.Header.Get("Sec-WebSocket-Extensions") != "" {
		t.Errorf("Compression off: %q", c.resp.Header.Get("Sec-WebSocket-Extensions"))
	}
}

// TestDeflateEcho: compressed messages are read, and messages of 128
// bytes or more are sent compressed, smaller ones not; with
// server_max_window_bits=N, messages over 2^N bytes are sent plain.
func TestDeflateEcho(t *testing.T) {
	long := []byte(strings.Repeat("brisk websocket ", 100)) // 1600 bytes
	for _, tc := range []struct {
		offer    string
		msg      []byte
		wantRSV1 bool
	}{
		{"permessage-deflate", long, true},
		{"permessage-deflate", []byte("short"), false},
		{"permessage-deflate; server_max_window_bits=10", long, false},
		{"permessage-deflate; server_max_window_bits=11", long, true},
	} {
		ln := serve(t, websocket.Handler(&websocket.Options{Compression: true}, echo))
		c := dial(t, ln, handshake("Sec-WebSocket-Extensions: "+tc.offer+"\r\n"))
		c.write(compressedFrame(t, ws.OpText, tc.msg))
		f := c.read()
		compressed := f.Header.Rsv == 4
		if compressed {
			var err error
			if f, err = wsflate.DecompressFrame(f); err != nil {
				t.Fatal(err)
			}
		}
		if compressed != tc.wantRSV1 || f.Header.OpCode != ws.OpText || !bytes.Equal(f.Payload, tc.msg) {
			t.Errorf("%s, %d bytes: compressed %v, %v, %d bytes back", tc.offer, len(tc.msg), compressed, f.Header.OpCode, len(f.Payload))
		}
	}
}

// TestDeflateLimits: a message that decompresses past MaxMessageSize is
// refused with 1009 (a few bytes on the wire), corrupt data with 1007,
// RSV1 on a continuation frame with 1002.
func TestDeflateLimits(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input func(t *testing.T) []byte
		code  websocket.StatusCode
	}{
		{"bomb", func(t *testing.T) []byte { return compressedFrame(t, ws.OpBinary, make([]byte, 1<<20)) }, 1009},
		{"corrupt", func(*testing.T) []byte { return frame(0xc2, []byte{0xff, 0xff, 0xff}) }, 1007},
		{"not_utf8", func(t *testing.T) []byte { return compressedFrame(t, ws.OpText, []byte("\xff\xfe")) }, 1007},
		{"rsv1_continuation", func(*testing.T) []byte {
			return append(frame(0x02, []byte("a")), frame(0xc0, []byte("b"))...)
		}, 1002},
		{"rsv1_ping", func(*testing.T) []byte { return frame(0xc9, nil) }, 1002},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln := serve(t, websocket.Handler(&websocket.Options{Compression: true, MaxMessageSize: 64 << 10}, echo))
			c := dial(t, ln, handshake("Sec-WebSocket-Extensions: permessage-deflate\r\n"))
			in := tc.input(t)
			if tc.name == "bomb" && len(in) > 2000 {
				t.Fatalf("the bomb is %d bytes on the wire", len(in))
			}
			c.write(in)
			if code := c.readClose(); code != tc.code {
				t.Errorf("Close %d, want %d", code, tc.code)
			}
		})
	}
}
