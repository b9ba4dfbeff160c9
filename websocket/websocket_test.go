package websocket_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/websocket"
	"github.com/gobwas/ws"
)

// TestHandshakeRefused: each invalid handshake gets its error and status,
// and nothing switches.
func TestHandshakeRefused(t *testing.T) {
	valid := handshake("")
	for _, tc := range []struct {
		name, request string
		status        int
		err           error
		field, value  string
	}{
		{"post", strings.Replace(valid, "GET", "POST", 1), 405, websocket.ErrMethod, "Allow", "GET"},
		{"no_upgrade", strings.Replace(valid, "Upgrade: websocket\r\n", "", 1), 426, websocket.ErrNotWebSocket, "Upgrade", "websocket"},
		{"no_connection_upgrade", strings.Replace(valid, "Connection: Upgrade", "Connection: keep-alive", 1), 426, websocket.ErrNotWebSocket, "Upgrade", "websocket"},
		{"http10", strings.Replace(valid, "HTTP/1.1", "HTTP/1.0", 1), 426, websocket.ErrNotWebSocket, "Upgrade", "websocket"},
		{"version_8", strings.Replace(valid, "Version: 13", "Version: 8", 1), 426, websocket.ErrVersion, "Sec-WebSocket-Version", "13"},
		{"short_key", strings.Replace(valid, "dGhlIHNhbXBsZSBub25jZQ==", "dGhlIHNhbXBsZQ==", 1), 400, websocket.ErrKey, "", ""},
		{"bad_key", strings.Replace(valid, "dGhlIHNhbXBsZSBub25jZQ==", "dGhlIHNhbXBsZSBub25jZ!=", 1), 400, websocket.ErrKey, "", ""},
		{"body", strings.Replace(valid, "\r\n\r\n", "\r\nContent-Length: 2\r\n\r\nhi", 1), 400, websocket.ErrBody, "", ""},
		{"chunked_body", strings.Replace(valid, "\r\n\r\n", "\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 1), 400, websocket.ErrBody, "", ""},
		{"cross_origin", handshake("Origin: https://evil.example\r\n"), 403, websocket.ErrOrigin, "", ""},
		{"null_origin", handshake("Origin: null\r\n"), 403, websocket.ErrOrigin, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got error
			ln := serve(t, func(c *brisk.Ctx) {
				_, got = websocket.Upgrade(c, nil)
			})
			c := dial(t, ln, tc.request)
			if c.resp.StatusCode != tc.status || !errors.Is(got, tc.err) {
				t.Errorf("status %d, error %v; want %d, %v", c.resp.StatusCode, got, tc.status, tc.err)
			}
			if tc.field != "" && c.resp.Header.Get(tc.field) != tc.value {
				t.Errorf("%s: %q, want %q", tc.field, c.resp.Header.Get(tc.field), tc.value)
			}
		})
	}
}

// TestOrigin: a same-origin Origin is accepted by default, another one
// when CheckOrigin allows it.
func TestOrigin(t *testing.T) {
	ln := serve(t, websocket.Handler(nil, echo))
	if c := dial(t, ln, handshake("Origin: https://EXAMPLE.com\r\n")); c.resp.StatusCode != 101 {
		t.Errorf("same origin: %d", c.resp.StatusCode)
	}
	opts := &websocket.Options{CheckOrigin: func(_ *brisk.Ctx, origin []byte) bool {
		return string(origin) == "https://app.example"
	}}
	ln = serve(t, websocket.Handler(opts, echo))
	if c := dial(t, ln, handshake("Origin: https://app.example\r\n")); c.resp.StatusCode != 101 {
		t.Errorf("allowed origin: %d", c.resp.StatusCode)
	}
	if c := dial(t, ln, handshake("Origin: https://example.com\r\n")); c.resp.StatusCode != 403 {
		t.Errorf("origin the hook refuses: %d", c.resp.StatusCode)
	}
}

// TestSubprotocol: the server's most preferred subprotocol that the client
// offers is selected; none in common selects none.
func TestSubprotocol(t *testing.T) {
	opts := &websocket.Options{Subprotocols: []string{"v2.chat", "v1.chat"}}
	var mu sync.Mutex
	var selected []string
	ln := serve(t, websocket.Handler(opts, func(conn *websocket.Conn) {
		mu.Lock()
		selected = append(selected, conn.Subprotocol())
		mu.Unlock()
	}))
	for _, tc := range []struct{ offer, want string }{
		{"Sec-WebSocket-Protocol: v1.chat, v2.chat\r\n", "v2.chat"},
		{"Sec-WebSocket-Protocol: x\r\nSec-WebSocket-Protocol: v1.chat\r\n", "v1.chat"},
		{"Sec-WebSocket-Protocol: mqtt\r\n", ""},
		{"", ""},
	} {
		c := dial(t, ln, handshake(tc.offer))
		if got := c.resp.Header.Get("Sec-WebSocket-Protocol"); c.resp.StatusCode != 101 || got != tc.want {
			t.Errorf("offer %q: %d, %q; want %q", tc.offer, c.resp.StatusCode, got, tc.want)
		}
	}
}

// TestEchoEarlyFrames: the 101's head is exact, and frames the client
// sent right behind its request, before the 101 (bytes the server read
// past the head), are read first; fragmented messages and a ping between
// fragments are handled.
func TestEchoEarlyFrames(t *testing.T) {
	ln := serve(t, websocket.Handler(nil, echo))
	early := string(frame(0x81, []byte("early")))
	c := dial(t, ln, handshake("")+early)
	if c.resp.StatusCode != 101 || c.resp.Header.Get("Sec-WebSocket-Accept") != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" ||
		c.resp.Header.Get("Sec-WebSocket-Extensions") != "" {
		t.Fatalf("handshake: %d %v", c.resp.StatusCode, c.resp.Header)
	}
	if f := c.read(); f.Header.OpCode != ws.OpText || string(f.Payload) != "early" || !f.Header.Fin {
		t.Errorf("early frame's echo: %v %q", f.Header, f.Payload)
	}
	c.write(frame(0x02, []byte("frag")))
	c.write(frame(0x89, []byte("p")))
	c.write(frame(0x80, []byte("mented")))
	if f := c.read(); f.Header.OpCode != ws.OpPong || string(f.Payload) != "p" {
		t.Errorf("pong: %v %q", f.Header, f.Payload)
	}
	if f := c.read(); f.Header.OpCode != ws.OpBinary || string(f.Payload) != "fragmented" {
		t.Errorf("fragmented echo: %v %q", f.Header, f.Payload)
	}
	c.write(frame(0x88, closePayload(1000, "bye")))
	if f := c.read(); f.Header.OpCode != ws.OpClose || !bytes.Equal(f.Payload, closePayload(1000, "")) {
		t.Errorf("close reply: %v %q", f.Header, f.Payload)
	}
	if _, err := c.br.ReadByte(); err != io.EOF {
		t.Errorf("after the close handshake: %v, want io.EOF (server closes)", err)
	}
}

// TestCloseCodes: each bad input is answered with its Close status, and
// ReadMessage reports it as a local *CloseError.
func TestCloseCodes(t *testing.T) {
	big := []byte{0x82, 0xff, 0, 0, 0, 0x40, 0, 0, 0, 0, 1, 2, 3, 4} // 1 GiB binary, masked: header only
	for _, tc := range []struct {
		name  string
		input []byte
		code  websocket.StatusCode
	}{
		{"unmasked", []byte{0x81, 0x01, 'x'}, 1002},
		{"rsv1_without_deflate", frame(0xc1, []byte("x")), 1002},
		{"rsv2", frame(0xa1, []byte("x")), 1002},
		{"reserved_opcode", frame(0x83, nil), 1002},
		{"reserved_control_opcode", frame(0x8b, nil), 1002},
		{"fragmented_ping", frame(0x09, nil), 1002},
		{"ping_126_bytes", frame(0x89, make([]byte, 126)), 1002},
		{"continuation_first", frame(0x80, []byte("x")), 1002},
		{"text_inside_fragmented", append(frame(0x01, []byte("a")), frame(0x81, []byte("b"))...), 1002},
		{"length_msb", []byte{0x82, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4}, 1002},
		{"length_not_minimal_16", []byte{0x82, 0xfe, 0, 5, 1, 2, 3, 4, 'a', 'b', 'c', 'd', 'e'}, 1002},
		{"length_not_minimal_64", []byte{0x82, 0xff, 0, 0, 0, 0, 0, 0, 0, 5, 1, 2, 3, 4}, 1002},
		{"close_one_byte", frame(0x88, []byte{3}), 1002},
		{"close_code_1005", frame(0x88, closePayload(1005, "")), 1002},
		{"close_code_999", frame(0x88, closePayload(999, "")), 1002},
		{"close_code_2000", frame(0x88, closePayload(2000, "")), 1002},
		{"close_reason_not_utf8", frame(0x88, closePayload(1000, "\xff")), 1007},
		{"text_not_utf8", frame(0x81, []byte("ok \xc3\x28")), 1007},
		{"text_not_utf8_split", append(frame(0x01, []byte("\xe2\x82")), frame(0x80, []byte("\xff"))...), 1007},
		{"too_big", big, 1009},
		{"too_big_fragments", append(frame(0x02, make([]byte, 600)), frame(0x80, make([]byte, 600))...), 1009},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errc := make(chan error, 1)
			ln := serve(t, websocket.Handler(&websocket.Options{MaxMessageSize: 1000}, func(conn *websocket.Conn) {
				_, _, err := conn.ReadMessage()
				errc <- err
			}))
			c := dial(t, ln, handshake(""))
			c.write(tc.input)
			if code := c.readClose(); code != tc.code {
				t.Errorf("Close %d, want %d", code, tc.code)
			}
			c.nc.Close()
			var ce *websocket.CloseError
			if err := <-errc; !errors.As(err, &ce) || ce.Code != tc.code || !ce.Local {
				t.Errorf("ReadMessage: %v", err)
			}
		})
	}
}

// TestMaxMessageSizeExact: a message of exactly MaxMessageSize bytes, in
// fragments, is accepted.
func TestMaxMessageSizeExact(t *testing.T) {
	ln := serve(t, websocket.Handler(&websocket.Options{MaxMessageSize: 1000}, echo))
	c := dial(t, ln, handshake(""))
	c.write(append(frame(0x02, make([]byte, 400)), frame(0x80, make([]byte, 600))...))
	if f := c.read(); f.Header.OpCode != ws.OpBinary || len(f.Payload) != 1000 {
		t.Errorf("echo: %v, %d bytes", f.Header, len(f.Payload))
	}
}

// TestClientCloseCodes: the client's Close is answered with its status
// (none for an empty one) and reported as a remote *CloseError.
func TestClientCloseCodes(t *testing.T) {
	for _, tc := range []struct {
		payload []byte
		code    websocket.StatusCode
		reply   []byte
	}{
		{nil, websocket.StatusNoStatus, nil},
		{closePayload(1001, "leaving"), 1001, closePayload(1001, "")},
		{closePayload(4000, "app"), 4000, closePayload(4000, "")},
	} {
		errc := make(chan error, 1)
		ln := serve(t, websocket.Handler(nil, func(conn *websocket.Conn) {
			_, _, err := conn.ReadMessage()
			errc <- err
		}))
		c := dial(t, ln, handshake(""))
		c.write(frame(0x88, tc.payload))
		if f := c.read(); f.Header.OpCode != ws.OpClose || !bytes.Equal(f.Payload, tc.reply) {
			t.Errorf("reply to %x: %v %x", tc.payload, f.Header, f.Payload)
		}
		var ce *websocket.CloseError
		if err := <-errc; !errors.As(err, &ce) || ce.Code != tc.code || ce.Local || !errors.Is(err, websocket.ErrClosed) {
			t.Errorf("ReadMessage after %x: %v", tc.payload, err)
		}
	}
}

// TestCloseWith: the handler's own Close carries its status and reason
// (cut at a character boundary); an unsendable status is refused.
func TestCloseWith(t *testing.T) {
	errc := make(chan error, 1)
	reason := strings.Repeat("é", 70) // 140 bytes
	ln := serve(t, websocket.Handler(nil, func(conn *websocket.Conn) {
		if err := conn.CloseWith(1006, ""); !errors.Is(err, websocket.ErrCloseCode) {
			t.Errorf("CloseWith(1006): %v", err)
		}
		conn.CloseWith(4001, reason)
		_, _, err := conn.ReadMessage()
		errc <- err
	}))
	c := dial(t, ln, handshake(""))
	f := c.read()
	want := closePayload(4001, strings.Repeat("é", 61)) // 122 bytes: 123 cut back to a whole character
	if f.Header.OpCode != ws.OpClose || !bytes.Equal(f.Payload, want) {
		t.Errorf("Close frame %v %q, want %q", f.Header.OpCode, f.Payload, want)
	}
	c.write(frame(0x88, closePayload(4001, "")))
	var ce *websocket.CloseError
	if err := <-errc; !errors.As(err, &ce) || ce.Code != 4001 || !ce.Local {
		t.Errorf("ReadMessage: %v", err)
	}
}
