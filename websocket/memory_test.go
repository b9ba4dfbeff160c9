//go:build !race

package websocket

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"runtime"
	"testing"

	"github.com/gobwas/ws"
)

// testConn is a Conn reading src and writing to the client end of a pipe
// that is drained.
func testConn(t *testing.T, src io.Reader, opts *Options) *Conn {
	server, client := net.Pipe()
	go io.Copy(io.Discard, client)
	t.Cleanup(func() { server.Close(); client.Close() })
	l := opts.limits()
	return newConn(server, bufio.NewReaderSize(src, l.readBuffer), l, handshake{}, context.Background(), nil)
}

// maskedFrame is a client frame.
func maskedFrame(op ws.OpCode, payload []byte) []byte {
	b, _ := ws.CompileFrame(ws.MaskFrameInPlace(ws.NewFrame(op, true, payload)))
	return b
}

// allocated returns the bytes allocated by f.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestMessageMemory: a message of MaxMessageSize less a byte, its last
// byte in a read of its own, is read into one buffer of its size: the
// Conn allocates little more than the message to read and echo it.
func TestMessageMemory(t *testing.T) {
	const limit = 1 << 20
	frame := maskedFrame(ws.OpBinary, bytes.Repeat([]byte("m"), limit-1))
	src := io.MultiReader(bytes.NewReader(frame[:len(frame)-1]), bytes.NewReader(frame[len(frame)-1:]))
	c := testConn(t, src, &Options{MaxMessageSize: limit, PingInterval: -1})
	n := allocated(func() {
		typ, msg, err := c.ReadMessage()
		if err != nil || typ != Binary || len(msg) != limit-1 {
			t.Fatalf("ReadMessage: %v, %d bytes, %v", typ, len(msg), err)
		}
		if err := c.WriteMessage(typ, msg); err != nil {
			t.Fatal(err)
		}
	})
	if n > limit+64<<10 {
		t.Errorf("%.2f MiB allocated to read and echo a message of 1 MiB less a byte", float64(n)/(1<<20))
	}
}

// TestHugeHeaderMemory: a frame header claiming 1 GiB is refused without
// allocating for it.
func TestHugeHeaderMemory(t *testing.T) {
	hdr := []byte{0x82, 0xff, 0, 0, 0, 0x40, 0, 0, 0, 0, 1, 2, 3, 4}
	c := testConn(t, bytes.NewReader(hdr), &Options{PingInterval: -1})
	n := allocated(func() {
		if _, _, err := c.ReadMessage(); err == nil {
			t.Fatal("no error")
		}
	})
	if n > 64<<10 {
		t.Errorf("%d KiB allocated refusing a 1 GiB frame header", n>>10)
	}
}

// TestEchoAllocs: echoing a message, small or over the 1 KiB that goes
// out in one writev, allocates nothing once the Conn's buffers exist.
func TestEchoAllocs(t *testing.T) {
	for _, size := range []int{5, 4 << 10} {
		frame := maskedFrame(ws.OpText, bytes.Repeat([]byte("h"), size))
		var r bytes.Reader
		c := testConn(t, &r, &Options{PingInterval: -1, IdleTimeout: -1, WriteTimeout: -1})
		n := testing.AllocsPerRun(100, func() {
			r.Reset(frame)
			typ, msg, err := c.ReadMessage()
			if err != nil {
				t.Fatal(err)
			}
			c.WriteMessage(typ, msg)
		})
		if n != 0 {
			t.Errorf("%d bytes: %v allocations per echo, want 0", size, n)
		}
	}
}
