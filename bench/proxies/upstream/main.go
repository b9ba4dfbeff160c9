// Command upstream is the upstream server of bench/proxy.sh: "/" answers
// 200 "Hello, World!" (text/plain), "/64k" 64 KiB of text; a request body
// is read and discarded. "/ws" is a WebSocket echo.
package main

import (
	"bytes"
	"flag"
	"io"
	"log"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/websocket"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9001", "listen `address`")
	flag.Parse()
	big := bytes.Repeat([]byte("x"), 64<<10)
	ws := websocket.Handler(nil, func(conn *websocket.Conn) {
		for typ, msg := range conn.Messages() {
			conn.WriteMessage(typ, msg)
		}
	})
	h := func(c *brisk.Ctx) {
		if string(c.Request.Path()) == "/ws" {
			ws(c)
			return
		}
		io.Copy(io.Discard, c.Request.BodyReader())
		c.Response.Header.Set("Content-Type", "text/plain")
		if string(c.Request.Path()) == "/64k" {
			c.Response.SetBody(big)
			return
		}
		c.Response.SetBodyString("Hello, World!")
	}
	s := &brisk.Server{Handler: h, Name: "upstream"}
	log.Fatal(s.ListenAndServe(*addr))
}
