package interop

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/websocket"
	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
	gorilla "github.com/gorilla/websocket"
)

// gorillaEcho is a net/http WebSocket echo handler with gorilla/websocket.
func gorillaEcho(w http.ResponseWriter, r *http.Request) {
	up := gorilla.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	conn.SetReadLimit(4 << 20)
	for {
		typ, msg, err := conn.ReadMessage()
		if err != nil {
			return
		}
		if err := conn.WriteMessage(typ, msg); err != nil {
			return
		}
	}
}

// WebSocketAccept is Sec-WebSocket-Accept for a Sec-WebSocket-Key (RFC
// 6455 §4.2.2).
func webSocketAccept(key []byte) string {
	h := sha1.New()
	h.Write(key)
	h.Write([]byte("258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}

// gobwasEcho is a native brisk WebSocket echo handler: the handshake
// through Ctx.Upgrade, frames with gobwas/ws on the connection.
func gobwasEcho(c *brisk.Ctx) {
	key := c.Request.Header.Get("Sec-WebSocket-Key")
	if len(key) == 0 || string(c.Request.Header.Get("Sec-WebSocket-Version")) != "13" {
		c.Response.SetStatusCode(400)
		return
	}
	c.Response.Header.Set("Sec-WebSocket-Accept", webSocketAccept(key))
	nc, buffered, err := c.Upgrade("websocket")
	if err != nil {
		c.Response.SetStatusCode(426)
		c.Response.Header.Set("Upgrade", "websocket")
		return
	}
	defer nc.Close()
	rw := struct {
		io.Reader
		io.Writer
	}{io.MultiReader(bytes.NewReader(buffered), nc), nc}
	for {
		msg, op, err := wsutil.ReadClientData(rw) // answers ping and close itself
		if err != nil {
			return
		}
		if err := wsutil.WriteServerMessage(nc, op, msg); err != nil {
			return
		}
	}
}

// briskEcho is the echo of package websocket, with compression and room
// for the clients' 1 MiB messages.
var briskEcho = websocket.Handler(&websocket.Options{Compression: true, MaxMessageSize: 4 << 20}, func(conn *websocket.Conn) {
	for typ, msg := range conn.Messages() {
		conn.WriteMessage(typ, msg)
	}
})

// wsServers are the ways of serving a WebSocket echo on brisk.
var wsServers = map[string]brisk.Handler{
	"gorilla_fromhttp":  brisk.FromHTTP(http.HandlerFunc(gorillaEcho)),
	"gobwas_upgrade":    gobwasEcho,
	"package_websocket": briskEcho,
}

// TestWebSocketGo exchanges text, binary, fragmented and 1 MiB messages,
// a ping and the close handshake with a gorilla/websocket client.
func TestWebSocketGo(t *testing.T) {
	for name, h := range wsServers {
		t.Run(name, func(t *testing.T) {
			addr := serve(t, &brisk.Server{Handler: h})
			conn, resp, err := gorilla.DefaultDialer.Dial("ws://"+addr+"/ws", nil)
			if err != nil {
				t.Fatalf("dial: %v", err)
			}
			defer conn.Close()
			if resp.StatusCode != 101 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			conn.SetReadLimit(4 << 20)
			conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
			for _, m := range []struct {
				typ  int
				data []byte
			}{{gorilla.TextMessage, []byte("hello")}, {gorilla.BinaryMessage, []byte{0, 1, 2, 255}}, {gorilla.BinaryMessage, big}} {
				if err := conn.WriteMessage(m.typ, m.data); err != nil {
					t.Fatal(err)
				}
				typ, got, err := conn.ReadMessage()
				if err != nil || typ != m.typ || !bytes.Equal(got, m.data) {
					t.Fatalf("echo of %d bytes (type %d): type %d, %d bytes, %v", len(m.data), m.typ, typ, len(got), err)
				}
			}
			// A message in three frames: a client whose frames carry 4 bytes.
			small := gorilla.Dialer{WriteBufferSize: 4}
			fconn, _, err := small.Dial("ws://"+addr+"/ws", nil)
			if err != nil {
				t.Fatal(err)
			}
			fconn.SetReadDeadline(time.Now().Add(5 * time.Second))
			if err := fconn.WriteMessage(gorilla.TextMessage, []byte("fragmented")); err != nil {
				t.Fatal(err)
			}
			if _, got, err := fconn.ReadMessage(); err != nil || string(got) != "fragmented" {
				t.Fatalf("fragmented echo %q, %v", got, err)
			}
			fconn.Close()
			pong := make(chan string, 1)
			conn.SetPongHandler(func(data string) error { pong <- data; return nil })
			conn.WriteControl(gorilla.PingMessage, []byte("p1"), time.Now().Add(time.Second))
			conn.WriteMessage(gorilla.TextMessage, []byte("after ping"))
			if _, got, err := conn.ReadMessage(); err != nil || string(got) != "after ping" {
				t.Fatalf("after ping %q, %v", got, err)
			}
			select {
			case d := <-pong:
				if d != "p1" {
					t.Errorf("pong %q", d)
				}
			default:
				t.Error("no pong before the next message")
			}
			conn.WriteMessage(gorilla.CloseMessage, gorilla.FormatCloseMessage(gorilla.CloseNormalClosure, "bye"))
			_, _, err = conn.ReadMessage()
			if ce, ok := err.(*gorilla.CloseError); !ok || ce.Code != gorilla.CloseNormalClosure {
				t.Errorf("close handshake: %v", err)
			}
		})
	}
}

// TestWebSocketNative checks the handshake bytes of the native handler
// and that frames the client sends right behind its request (before the
// 101 arrives) reach gobwas/ws, with a gobwas client.
func TestWebSocketNative(t *testing.T) {
	addr := serve(t, &brisk.Server{Handler: gobwasEcho})
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	var frame bytes.Buffer
	wsutil.WriteClientText(&frame, []byte("early"))
	io.WriteString(nc, "GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"+
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"+frame.String())
	br := bufio.NewReader(nc)
	var head []string
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == "\r\n" {
			break
		}
		if !strings.HasPrefix(line, "Date: ") {
			head = append(head, strings.TrimSpace(line))
		}
	}
	want := "HTTP/1.1 101 Switching Protocols|Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=|Connection: Upgrade|Upgrade: websocket"
	if got := strings.Join(head, "|"); got != want {
		t.Errorf("head %q, want %q", got, want)
	}
	msg, op, err := wsutil.ReadServerData(struct {
		io.Reader
		io.Writer
	}{br, nc})
	if err != nil || op != ws.OpText || string(msg) != "early" {
		t.Errorf("early frame echo %q op %v, %v", msg, op, err)
	}
}

// TestWebSocketShutdown checks Shutdown while a WebSocket is open: it
// does not wait for it, and with CloseHijacked it closes it.
func TestWebSocketShutdown(t *testing.T) {
	for _, closeHijacked := range []bool{false, true} {
		s := &brisk.Server{Handler: gobwasEcho, CloseHijacked: closeHijacked}
		ln, _ := net.Listen("tcp", "127.0.0.1:0")
		go s.Serve(ln)
		conn, _, err := gorilla.DefaultDialer.Dial("ws://"+ln.Addr().String()+"/ws", nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("CloseHijacked=%v: Shutdown: %v", closeHijacked, err)
		}
		cancel()
		conn.SetReadDeadline(time.Now().Add(3 * time.Second))
		werr := conn.WriteMessage(gorilla.TextMessage, []byte("still there?"))
		_, got, err := conn.ReadMessage()
		switch {
		case closeHijacked && err == nil:
			t.Errorf("CloseHijacked: the WebSocket still echoes %q", got)
		case !closeHijacked && (werr != nil || err != nil || string(got) != "still there?"):
			t.Errorf("WebSocket after Shutdown: %q, %v %v", got, werr, err)
		}
		conn.Close()
	}
}
