package websocket

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsflate"
)

// sinkConn is a connection whose writes are discarded.
type sinkConn struct{ net.Conn }

func (sinkConn) Write(p []byte) (int, error)      { return len(p), nil }
func (sinkConn) SetReadDeadline(time.Time) error  { return nil }
func (sinkConn) SetWriteDeadline(time.Time) error { return nil }
func (sinkConn) Close() error                     { return nil }

// benchEcho reads a client frame of payload and writes it back, b.N
// times, with opts and the handshake h.
func benchEcho(b *testing.B, payload []byte, h handshake, compressed bool) {
	frame := maskedFrameBench(payload, compressed)
	var r bytes.Reader
	opts := &Options{PingInterval: -1}
	l := opts.limits()
	c := newConn(sinkConn{}, bufio.NewReaderSize(&r, l.readBuffer), l, h, context.Background(), nil)
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(frame)
		typ, msg, err := c.ReadMessage()
		if err != nil {
			b.Fatal(err)
		}
		c.WriteMessage(typ, msg)
	}
}

// BenchmarkEcho: a text message read and written back, on a connection
// whose I/O costs nothing: the Conn's own cost per message.
func BenchmarkEcho(b *testing.B) {
	for _, size := range []int{64, 4 << 10, 64 << 10} {
		payload := []byte(strings.Repeat("brisk ws ", size/9+1)[:size])
		b.Run("plain/"+sizeName(size), func(b *testing.B) { benchEcho(b, payload, handshake{}, false) })
		b.Run("deflate/"+sizeName(size), func(b *testing.B) {
			benchEcho(b, payload, handshake{deflate: deflateParams{ok: true}}, true)
		})
	}
}

func sizeName(n int) string {
	if n >= 1<<10 {
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

// maskedFrameBench is a client text frame of payload, compressed when
// asked (RFC 7692).
func maskedFrameBench(payload []byte, compressed bool) []byte {
	f := ws.NewFrame(ws.OpText, true, bytes.Clone(payload)) // masked in place
	if compressed {
		f, _ = wsflate.CompressFrame(f)
	}
	b, _ := ws.CompileFrame(ws.MaskFrameInPlace(f))
	return b
}
