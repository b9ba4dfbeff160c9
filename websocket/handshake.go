package websocket

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"io"

	"github.com/brisk-http/brisk"
)

// Upgrade completes the server side of a WebSocket opening handshake
// (RFC 6455 §4.2) and returns the connection. opts may be nil (see
// Options). It checks, in order, the method (GET, else ErrMethod and
// 405), the upgrade offer (else ErrNotWebSocket and 426), the version
// (ErrVersion, 426), the key (ErrKey, 400), the absence of a body
// (ErrBody, 400) and the Origin (ErrOrigin, 403); then it selects a subprotocol and, when enabled, permessage-deflate,
// and writes the 101 with the handler's own response fields
// (brisk.Ctx.Upgrade). On error the response is set (status, fields, a
// short text body) and the handler should return; when writing the 101
// failed, the connection is closed after the handler returns.
//
// The Conn owns the connection: close it (Conn.Close) when done. Use it
// while the handler runs (see the package doc on Shutdown).
func Upgrade(c *brisk.Ctx, opts *Options) (*Conn, error) {
	if opts == nil {
		opts = &Options{}
	}
	h, err := checkHandshake(c, opts)
	if err != nil {
		refuse(c, err)
		return nil, err
	}
	r := &c.Response.Header
	var accept [28]byte
	r.Set("Sec-WebSocket-Accept", string(acceptKey(&accept, c.Request.Header.Get("Sec-WebSocket-Key"))))
	if h.subprotocol != "" {
		r.Set("Sec-WebSocket-Protocol", h.subprotocol)
	}
	if h.deflate.ok {
		r.Set("Sec-WebSocket-Extensions", h.deflate.response())
	}
	ctx, remote := c.Context(), c.RemoteAddr()
	nc, buffered, err := c.Upgrade("websocket")
	if err != nil {
		r.Del("Sec-WebSocket-Accept")
		r.Del("Sec-WebSocket-Protocol")
		r.Del("Sec-WebSocket-Extensions")
		c.Response.SetStatusCode(500)
		return nil, err
	}
	var src io.Reader = nc
	if len(buffered) > 0 {
		src = io.MultiReader(bytes.NewReader(buffered), nc)
	}
	l := opts.limits()
	return newConn(nc, bufio.NewReaderSize(src, l.readBuffer), l, h, ctx, remote), nil
}

// Handler returns a brisk.Handler that upgrades each request with opts
// (Upgrade: a failed handshake is answered as Upgrade says) and runs fn on
// the connection, which it closes when fn returns (Conn.Close).
func Handler(opts *Options, fn func(*Conn)) brisk.Handler {
	return func(c *brisk.Ctx) {
		conn, err := Upgrade(c, opts)
		if err != nil {
			return
		}
		defer conn.Close()
		fn(conn)
	}
}

// handshake is what Upgrade negotiated.
type handshake struct {
	subprotocol string
	deflate     deflateParams
}

// checkHandshake validates the request and negotiates.
func checkHandshake(c *brisk.Ctx, opts *Options) (handshake, error) {
	q := &c.Request.Header
	switch {
	case string(c.Request.Method()) != "GET":
		return handshake{}, ErrMethod
	case c.Request.Proto() == "HTTP/1.0" || !q.HasToken("Connection", "upgrade") || !q.HasToken("Upgrade", "websocket"):
		return handshake{}, ErrNotWebSocket
	case string(q.Get("Sec-WebSocket-Version")) != "13":
		return handshake{}, ErrVersion
	case !validKey(q.Get("Sec-WebSocket-Key")):
		return handshake{}, ErrKey
	case c.Request.ContentLength() != 0:
		return handshake{}, ErrBody
	}
	if origin := q.Get("Origin"); origin != nil && !checkOrigin(c, opts, origin) {
		return handshake{}, ErrOrigin
	}
	h := handshake{subprotocol: selectSubprotocol(c, opts.Subprotocols)}
	if opts.Compression {
		h.deflate = negotiateDeflate(q.Values("Sec-WebSocket-Extensions"))
	}
	return h, nil
}

// refuse sets the response for a handshake error.
func refuse(c *brisk.Ctx, err error) {
	r := &c.Response
	status := 400
	switch err {
	case ErrMethod:
		status = 405
		r.Header.Set("Allow", "GET")
	case ErrNotWebSocket:
		status = 426
		r.Header.Set("Upgrade", "websocket")
	case ErrVersion:
		status = 426
		r.Header.Set("Sec-WebSocket-Version", "13")
	case ErrOrigin:
		status = 403
	}
	r.SetStatusCode(status)
	r.Header.Set("Content-Type", "text/plain; charset=utf-8")
	r.SetBodyString(err.Error() + "\n")
}

// validKey reports whether key is the base64 of 16 bytes (RFC 6455 §4.1).
func validKey(key []byte) bool {
	var b [18]byte
	n, err := base64.StdEncoding.Decode(b[:], key)
	return len(key) == 24 && err == nil && n == 16
}

// acceptKey computes Sec-WebSocket-Accept for key into dst (RFC 6455
// §4.2.2).
func acceptKey(dst *[28]byte, key []byte) []byte {
	h := sha1.New()
	h.Write(key)
	h.Write([]byte("258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	var sum [sha1.Size]byte
	base64.StdEncoding.Encode(dst[:], h.Sum(sum[:0]))
	return dst[:]
}

// checkOrigin applies opts.CheckOrigin, or the same-origin rule.
func checkOrigin(c *brisk.Ctx, opts *Options, origin []byte) bool {
	if opts.CheckOrigin != nil {
		return opts.CheckOrigin(c, origin)
	}
	_, host, ok := bytes.Cut(origin, []byte("://"))
	return ok && len(host) > 0 && bytes.EqualFold(host, c.Request.Host())
}

// selectSubprotocol returns the first of ours that the client offers.
func selectSubprotocol(c *brisk.Ctx, ours []string) string {
	if len(ours) == 0 {
		return ""
	}
	for _, p := range ours {
		for v := range c.Request.Header.Values("Sec-WebSocket-Protocol") {
			for tok := range bytes.SplitSeq(v, []byte(",")) {
				if string(bytes.TrimSpace(tok)) == p {
					return p
				}
			}
		}
	}
	return ""
}
