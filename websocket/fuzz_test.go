package websocket

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsflate"
)

// FuzzReadMessage feeds arbitrary client bytes to a Conn with
// permessage-deflate and a 4 KiB limit: reading never panics, every
// message is within the limit, text is valid UTF-8, and reading ends
// with a Close the server sent or with the input's end.
func FuzzReadMessage(f *testing.F) {
	compressed, _ := wsflate.CompressFrame(ws.NewFrame(ws.OpText, true, bytes.Repeat([]byte("ab"), 100)))
	for _, fr := range []ws.Frame{
		ws.NewTextFrame([]byte("hello")),
		ws.NewFrame(ws.OpBinary, false, []byte("frag")),
		ws.NewFrame(ws.OpContinuation, true, []byte("ment")),
		ws.NewPingFrame([]byte("p")),
		ws.NewCloseFrame(ws.NewCloseFrameBody(1000, "bye")),
		compressed,
	} {
		b, _ := ws.CompileFrame(ws.MaskFrameInPlace(fr))
		f.Add(b)
	}
	f.Add([]byte{0x82, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := &Options{MaxMessageSize: 4096, PingInterval: -1}
		l := opts.limits()
		c := newConn(sinkConn{}, bufio.NewReaderSize(bytes.NewReader(data), l.readBuffer), l,
			handshake{deflate: deflateParams{ok: true}}, context.Background(), nil)
		for range 1000 {
			typ, msg, err := c.ReadMessage()
			if err != nil {
				var ce *CloseError
				if errors.As(err, &ce) && ce.Local && ce.Code == 0 {
					t.Fatalf("a Close with status 0: %v", err)
				}
				return
			}
			if len(msg) > 4096 || typ == Text && !utf8.Valid(msg) {
				t.Fatalf("message %v of %d bytes", typ, len(msg))
			}
		}
	})
}
