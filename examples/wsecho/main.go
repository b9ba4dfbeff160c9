// Command wsecho is a WebSocket echo server on brisk: every message a
// client sends on ws://localhost:8080/ is sent back (package websocket's
// defaults: same-origin, 1 MiB messages, 60 s idle limit with pings).
package main

import (
	"log"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/websocket"
)

func echo(conn *websocket.Conn) {
	for typ, msg := range conn.Messages() {
		conn.WriteMessage(typ, msg)
	}
}

func main() {
	srv := &brisk.Server{Handler: websocket.Handler(nil, echo)}
	log.Fatal(srv.ListenAndServe("localhost:8080"))
}
