package site

import (
	"math"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/websocket"
)

// The defaults of the /ws limits (Config).
const (
	DefaultWebSocketMaxMessage  = websocket.DefaultMaxMessageSize // bytes
	DefaultWebSocketIdleTimeout = websocket.DefaultIdleTimeout    // brisk.DefaultIdleTimeout
)

// wsLimits serves /ws: a WebSocket echo (package websocket) with Config's
// limits.
type wsLimits struct{ handler brisk.Handler }

func newWSLimits(cfg Config) wsLimits {
	opts := &websocket.Options{MaxMessageSize: cfg.WebSocketMaxMessage, IdleTimeout: cfg.WebSocketIdleTimeout}
	if opts.MaxMessageSize < 0 {
		opts.MaxMessageSize = math.MaxInt64 // package websocket's cap: no limit in practice
	}
	return wsLimits{websocket.Handler(opts, echoMessages)}
}

// echo accepts a WebSocket (RFC 6455 §4.2) and echoes each message until
// the connection ends; see Config for what ends it.
func (l wsLimits) echo(c *brisk.Ctx) { l.handler(c) }

// echoMessages writes back each message conn reads.
func echoMessages(conn *websocket.Conn) {
	for typ, msg := range conn.Messages() {
		conn.WriteMessage(typ, msg)
	}
}
