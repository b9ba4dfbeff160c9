package websocket

import (
	"time"

	"github.com/brisk-http/brisk"
)

// Defaults of Options' zero values.
const (
	DefaultMaxMessageSize = 1 << 20          // bytes
	DefaultIdleTimeout    = 60 * time.Second // as brisk.DefaultIdleTimeout
	DefaultWriteTimeout   = 10 * time.Second
	DefaultReadBufferSize = 4 << 10 // bytes
)

// Options configure Upgrade. The zero value (or a nil *Options) is ready:
// same-origin, no subprotocol, no compression, the default limits.
type Options struct {
	// CheckOrigin decides whether to accept a handshake whose Origin
	// field (RFC 6454) is origin; it is not called when the request has
	// none (not a browser). Nil means same-origin: the origin's host and
	// port equal the request's Host, compared case-insensitively (behind
	// a proxy that rewrites Host, set CheckOrigin). A refusal fails
	// Upgrade with ErrOrigin and a 403 (RFC 6455 §4.2.2).
	CheckOrigin func(c *brisk.Ctx, origin []byte) bool

	// Subprotocols are the subprotocols the server speaks, most preferred
	// first (RFC 6455 §1.9, §4.2.2): the first of them the client offers
	// in Sec-WebSocket-Protocol is selected (Conn.Subprotocol). None
	// offered or none in common: the handshake succeeds without one.
	Subprotocols []string

	// Compression accepts permessage-deflate (RFC 7692) when the client
	// offers it, with no context takeover either way: each message is
	// compressed on its own, so that no window is kept between messages.
	// Messages of 128 bytes or more are sent compressed (with
	// github.com/klauspost/compress/flate's stateless encoder: no
	// compressor is kept per connection). A connection holds a
	// decompressor (compress/flate, about 45 KiB) from the first
	// compressed message it reads until it ends.
	Compression bool

	// MaxMessageSize is the largest message the Conn accepts, in bytes,
	// counted on the wire and again after decompression. Zero or
	// negative means DefaultMaxMessageSize (1 MiB). A larger message is
	// refused with Close 1009 (RFC 6455 §7.4.1) as soon as a frame header
	// announces it, before its payload is read. The Conn's message
	// buffer never grows past it (plus 9 bytes), nor, for a compressed
	// message, does the second one holding its decompressed form; one
	// over 64 KiB is dropped when the next read starts. Values over 2^62
	// mean 2^62.
	MaxMessageSize int64

	// IdleTimeout is the longest the Conn waits for each frame while
	// reading, from the moment it starts waiting for the frame's header
	// to the end of its payload; any frame counts, pongs included. Zero
	// means DefaultIdleTimeout (60 s); negative means no limit. On expiry
	// the Conn sends Close 1001. It applies only while a ReadMessage
	// runs.
	IdleTimeout time.Duration

	// PingInterval is how often the server sends a Ping (RFC 6455
	// §5.5.2), so that a live client answers within IdleTimeout. Zero
	// means half the IdleTimeout (none when there is no IdleTimeout);
	// negative means no pings.
	PingInterval time.Duration

	// WriteTimeout bounds the write of each message or control frame.
	// Zero means DefaultWriteTimeout (10 s); negative means no limit. A
	// write that times out fails the connection (it is closed).
	WriteTimeout time.Duration

	// ReadBufferSize is the size of the buffer frames are read through,
	// in bytes. Zero means DefaultReadBufferSize (4 KiB); values under
	// 256 mean 256.
	ReadBufferSize int
}

// maxMessageCap bounds MaxMessageSize so that sizes computed from it
// (plus a frame's tail) cannot overflow: no limit in practice.
const maxMessageCap = 1 << 62

// limits are Options resolved.
type limits struct {
	maxMessage int64
	idle       time.Duration // 0: none
	ping       time.Duration // 0: none
	write      time.Duration // 0: none
	readBuffer int
}

func (o *Options) limits() limits {
	l := limits{maxMessage: o.MaxMessageSize, idle: o.IdleTimeout, ping: o.PingInterval,
		write: o.WriteTimeout, readBuffer: o.ReadBufferSize}
	if l.maxMessage <= 0 {
		l.maxMessage = DefaultMaxMessageSize
	}
	l.maxMessage = min(l.maxMessage, maxMessageCap)
	l.idle = resolve(l.idle, DefaultIdleTimeout)
	if l.ping == 0 {
		l.ping = l.idle / 2
	}
	l.ping = max(l.ping, 0)
	l.write = resolve(l.write, DefaultWriteTimeout)
	if l.readBuffer == 0 {
		l.readBuffer = DefaultReadBufferSize
	}
	l.readBuffer = max(l.readBuffer, 256)
	return l
}

// resolve maps a duration option: zero to def, negative to 0 (none).
func resolve(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}
