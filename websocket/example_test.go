package websocket_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/websocket"
	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// ExampleHandler serves an echo and talks to it with gobwas/ws's client.
func ExampleHandler() {
	echo := func(conn *websocket.Conn) {
		for typ, msg := range conn.Messages() {
			conn.WriteMessage(typ, msg)
		}
	}
	srv := &brisk.Server{Handler: websocket.Handler(nil, echo)}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	d := ws.Dialer{NetDial: func(context.Context, string, string) (net.Conn, error) { return ln.Dial() }}
	conn, _, _, err := d.Dial(context.Background(), "ws://example.com/")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer conn.Close()
	wsutil.WriteClientText(conn, []byte("hello"))
	msg, _ := wsutil.ReadServerText(conn)
	fmt.Println(string(msg))
	// Output: hello
}

// ExampleUpgrade accepts a chat subprotocol from the pages of another
// origin, with compression and a 64 KiB message limit, and reads one
// message. A request that is no WebSocket handshake is answered by
// Upgrade (here 426).
func ExampleUpgrade() {
	opts := &websocket.Options{
		CheckOrigin: func(c *brisk.Ctx, origin []byte) bool {
			return string(origin) == "https://app.example"
		},
		Subprotocols:   []string{"chat.v2", "chat.v1"},
		Compression:    true,
		MaxMessageSize: 64 << 10,
		IdleTimeout:    30 * time.Second,
	}
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		conn, err := websocket.Upgrade(c, opts)
		if err != nil {
			fmt.Println(err == websocket.ErrNotWebSocket)
			return // the response is set: 426
		}
		defer conn.Close()
		typ, msg, err := conn.ReadMessage()
		fmt.Println(conn.Subprotocol(), conn.Compressed(), typ == websocket.Text, string(msg), err)
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	client := &http.Client{Transport: &http.Transport{DialContext: ln.DialContext}}
	resp, _ := client.Get("http://example.com/chat")
	resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Header.Get("Upgrade"))

	d := ws.Dialer{
		NetDial:   func(context.Context, string, string) (net.Conn, error) { return ln.Dial() },
		Protocols: []string{"chat.v1", "chat.v2"},
		Header:    ws.HandshakeHeaderHTTP(http.Header{"Origin": {"https://app.example"}}),
	}
	conn, _, hs, err := d.Dial(context.Background(), "ws://example.com/chat")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer conn.Close()
	fmt.Println(hs.Protocol)
	wsutil.WriteClientText(conn, []byte("hi"))
	wsutil.ReadServerData(conn) // the Close that follows Conn.Close
	// Output:
	// true
	// 426 websocket
	// chat.v2
	// chat.v2 false true hi <nil>
}
