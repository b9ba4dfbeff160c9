package websocket_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/websocket"
	"github.com/gobwas/ws"
)

// echo echoes every message until the connection ends.
func echo(conn *websocket.Conn) {
	for typ, msg := range conn.Messages() {
		conn.WriteMessage(typ, msg)
	}
}

// serve runs h on an in-memory listener until the test ends.
func serve(t *testing.T, h brisk.Handler) *brisktest.Listener {
	t.Helper()
	srv := &brisk.Server{Handler: h}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	return ln
}

// handshake is a valid opening handshake for /ws; extra fields end with
// CRLF.
func handshake(extra string) string {
	return "GET /ws HTTP/1.1\r\nHost: example.com\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n" +
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" + extra + "\r\n"
}

// client is a raw client connection after its handshake.
type client struct {
	t    *testing.T
	nc   net.Conn
	br   *bufio.Reader
	resp *http.Response
}

// dial sends request (plus early bytes) and reads the response head.
func dial(t *testing.T, ln *brisktest.Listener, request string) *client {
	t.Helper()
	nc, err := ln.Dial()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(nc, request); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(nc)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 101 {
		resp.Body.Close()
	}
	return &client{t: t, nc: nc, br: br, resp: resp}
}

// frame encodes a masked client frame with the given first byte.
func frame(b0 byte, payload []byte) []byte {
	f := ws.NewFrame(ws.OpCode(b0&0xf), b0&0x80 != 0, append([]byte(nil), payload...))
	f.Header.Rsv = b0 >> 4 & 7
	f = ws.MaskFrameInPlace(f)
	b, _ := ws.CompileFrame(f)
	return b
}

func (c *client) write(b []byte) {
	c.t.Helper()
	if _, err := c.nc.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

// read reads a server frame of at most 2 MiB.
func (c *client) read() ws.Frame {
	c.t.Helper()
	f, err := readFrame(c.br)
	if err != nil {
		c.t.Fatalf("reading a frame: %v", err)
	}
	return f
}

// readFrame reads a frame of at most 2 MiB (ws.ReadFrame reads any
// length the peer declares).
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

// readClose reads frames up to a Close and returns its status code.
func (c *client) readClose() websocket.StatusCode {
	c.t.Helper()
	for {
		f := c.read()
		if f.Header.OpCode == ws.OpClose {
			if len(f.Payload) < 2 {
				return websocket.StatusNoStatus
			}
			return websocket.StatusCode(binary.BigEndian.Uint16(f.Payload))
		}
	}
}

// closePayload is a Close frame's payload.
func closePayload(code uint16, reason string) []byte {
	return append(binary.BigEndian.AppendUint16(nil, code), reason...)
}
