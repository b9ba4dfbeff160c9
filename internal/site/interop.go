package site

import (
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/pprof"

	"github.com/brisk-http/brisk"
	"github.com/gobwas/ws/wsutil"
)

// The site's endpoints built on net/http and WebSocket code:
//
//	/ws            a WebSocket echo (gobwas/ws over Ctx.Upgrade)
//	/debug/pprof/  net/http/pprof through brisk.FromHTTP

// pprofHandler serves net/http/pprof's pages, profiles and traces.
var pprofHandler = brisk.FromHTTP(pprofMux())

func pprofMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// wsEcho accepts a WebSocket (RFC 6455 §4.2) and echoes each message
// until the client closes; gobwas/ws answers pings and the close.
func wsEcho(c *brisk.Ctx) {
	key := c.Request.Header.Get("Sec-WebSocket-Key")
	if string(c.Request.Method()) != "GET" || len(key) == 0 || string(c.Request.Header.Get("Sec-WebSocket-Version")) != "13" {
		c.Response.Header.Set("Sec-WebSocket-Version", "13")
		setText(c, 400, "400 bad WebSocket handshake\n")
		return
	}
	c.Response.Header.Set("Sec-WebSocket-Accept", webSocketAccept(key))
	nc, buffered, err := c.Upgrade("websocket")
	if err != nil {
		c.Response.Header.Del("Sec-WebSocket-Accept")
		c.Response.Header.Set("Upgrade", "websocket")
		setText(c, 426, "426 upgrade required\n")
		return
	}
	defer nc.Close()
	rw := struct {
		io.Reader
		io.Writer
	}{io.MultiReader(bytes.NewReader(buffered), nc), nc}
	for {
		msg, op, err := wsutil.ReadClientData(rw)
		if err != nil {
			return
		}
		if err := wsutil.WriteServerMessage(nc, op, msg); err != nil {
			return
		}
	}
}

// webSocketAccept is Sec-WebSocket-Accept for a Sec-WebSocket-Key (RFC
// 6455 §4.2.2).
func webSocketAccept(key []byte) string {
	h := sha1.New()
	h.Write(key)
	h.Write([]byte("258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}
