package site

import (
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"os"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// The defaults of the /ws limits (Config).
const (
	DefaultWebSocketMaxMessage  = 1 << 20          // bytes
	DefaultWebSocketIdleTimeout = 60 * time.Second // brisk.DefaultIdleTimeout
)

// closeLinger bounds the wait, after the server's Close frame, for the
// client's own Close and end of stream; closeLingerBytes bounds what is
// read and dropped meanwhile (the rest of a refused frame).
const (
	closeLinger      = time.Second
	closeLingerBytes = 1 << 20
)

// keptMessageBuffer is the largest message buffer a connection keeps
// between messages; a larger one is dropped once its message is echoed.
const keptMessageBuffer = 64 << 10

// wsLimits are the /ws limits of a Config, resolved: negative means none.
type wsLimits struct {
	maxMessage int64
	idle       time.Duration
}

func newWSLimits(cfg Config) wsLimits {
	l := wsLimits{maxMessage: cfg.WebSocketMaxMessage, idle: cfg.WebSocketIdleTimeout}
	if l.maxMessage == 0 {
		l.maxMessage = DefaultWebSocketMaxMessage
	}
	if l.idle == 0 {
		l.idle = DefaultWebSocketIdleTimeout
	}
	return l
}

// deadline returns the time the idle limit ends from now; the zero time
// (none) when there is no limit.
func (l wsLimits) deadline() time.Time {
	if l.idle < 0 {
		return time.Time{}
	}
	return time.Now().Add(l.idle)
}

// echo accepts a WebSocket (RFC 6455 §4.2) and echoes each message within
// the limits until the client closes; see Config for what ends it.
func (l wsLimits) echo(c *brisk.Ctx) {
	key := c.Request.Header.Get("Sec-WebSocket-Key")
	if string(c.Request.Method()) != "GET" || len(key) != 24 || string(c.Request.Header.Get("Sec-WebSocket-Version")) != "13" {
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
	code, reason := l.echoMessages(nc, io.MultiReader(bytes.NewReader(buffered), nc))
	if code != 0 {
		closeWebSocket(nc, code, reason)
	}
}

// echoMessages reads messages from src and writes each back on nc until
// the connection ends. It returns the status code of the Close frame to
// send, and its reason, or 0 when none is to be sent (the client closed,
// and was answered, or the connection failed).
func (l wsLimits) echoMessages(nc net.Conn, src io.Reader) (ws.StatusCode, string) {
	var size int64 // of the message being read: its frames so far
	control := func(h ws.Header, r io.Reader) error {
		err := wsutil.ControlHandler{Src: r, Dst: nc, State: ws.StateServerSide, DisableSrcCiphering: true}.Handle(h)
		if h.OpCode == ws.OpClose {
			return wsutil.ClosedError{} // answered, with 1002 if it was malformed
		}
		return err
	}
	rd := wsutil.Reader{
		Source:         src,
		State:          ws.StateServerSide,
		CheckUTF8:      true,
		OnIntermediate: control, // a control frame between fragments
		OnContinuation: func(h ws.Header, _ io.Reader) error {
			if size += h.Length; l.maxMessage >= 0 && size > l.maxMessage {
				return wsutil.ErrFrameTooLarge
			}
			return nil
		},
	}
	var msg []byte               // the message being read, then echoed
	nc.SetDeadline(l.deadline()) // control frames do not move it
	for {
		h, err := rd.NextFrame()
		switch {
		case err != nil:
		case h.OpCode.IsControl():
			err = control(h, &rd)
		case l.maxMessage >= 0 && h.Length > l.maxMessage: // before reading it
			err = wsutil.ErrFrameTooLarge
		default:
			size = h.Length
			if msg, err = l.readMessage(msg[:0], &rd); err != nil {
				break
			}
			nc.SetWriteDeadline(l.deadline())
			if wsutil.WriteServerMessage(nc, h.OpCode, msg) != nil {
				return 0, ""
			}
			if cap(msg) > keptMessageBuffer {
				msg = nil
			}
			nc.SetDeadline(l.deadline())
		}
		if err != nil {
			return closeStatus(err)
		}
	}
}

// readMessage appends the rest of the message rd is reading to buf. The
// buffer grows with the bytes that arrive, doubling, but never past the
// message limit plus one byte (room to read the end of the message): the
// reader's checks keep a message within the limit, so a bigger buffer
// would only be memory a stalled client holds. bytes.Buffer.ReadFrom,
// which keeps 512 bytes free before each read, took a message of 1 MiB
// less a byte whose last bytes were still to come into a buffer of 2 MiB.
func (l wsLimits) readMessage(buf []byte, rd io.Reader) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			n := max(2*cap(buf), 4<<10)
			if l.maxMessage >= 0 && int64(n) > l.maxMessage {
				n = int(l.maxMessage) + 1
			}
			if n <= cap(buf) { // past the limit: the reader's checks failed
				return buf, wsutil.ErrFrameTooLarge
			}
			buf = append(make([]byte, 0, n), buf...)
		}
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case err == io.EOF:
			return buf, nil
		case err != nil:
			return buf, err
		}
	}
}

// closeStatus returns the Close frame status code (RFC 6455 §7.4.1) and
// reason for the error that ended reading, or 0 when no Close frame is to
// be sent.
func closeStatus(err error) (ws.StatusCode, string) {
	switch {
	case errors.Is(err, wsutil.ErrFrameTooLarge):
		return ws.StatusMessageTooBig, "message too big"
	case errors.Is(err, wsutil.ErrInvalidUTF8):
		return ws.StatusInvalidFramePayloadData, "invalid UTF-8 in a text message"
	case errors.As(err, new(ws.ProtocolError)):
		return ws.StatusProtocolError, err.Error()
	case errors.Is(err, ws.ErrHeaderLengthMSB), errors.Is(err, ws.ErrHeaderLengthUnexpected):
		return ws.StatusProtocolError, "invalid payload length"
	case errors.Is(err, os.ErrDeadlineExceeded):
		return ws.StatusGoingAway, "idle timeout"
	}
	return 0, "" // the client closed (and was answered) or the connection failed
}

// closeWebSocket sends a Close frame with code and reason (RFC 6455
// §5.5.1), then ends the connection as §7.1.1 asks: it half-closes it and
// reads what the client still sends (the rest of a refused frame, its own
// Close) for up to closeLinger and closeLingerBytes, so that the client
// reads the Close frame rather than a reset; the caller closes nc.
func closeWebSocket(nc net.Conn, code ws.StatusCode, reason string) {
	nc.SetDeadline(time.Now().Add(closeLinger))
	if ws.WriteFrame(nc, ws.NewCloseFrame(ws.NewCloseFrameBody(code, reason))) != nil {
		return
	}
	if cw, ok := nc.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
	io.CopyN(io.Discard, nc, closeLingerBytes)
}

// webSocketAccept is Sec-WebSocket-Accept for a Sec-WebSocket-Key (RFC
// 6455 §4.2.2).
func webSocketAccept(key []byte) string {
	h := sha1.New()
	h.Write(key)
	h.Write([]byte("258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}
