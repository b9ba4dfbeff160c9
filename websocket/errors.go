package websocket

import (
	"errors"
	"fmt"
)

// Errors of Upgrade; each leaves the response set (status, fields, a short
// text body) for the handler to return.
var (
	// ErrMethod: the request's method is not GET (RFC 6455 §4.1);
	// answered 405 with "Allow: GET".
	ErrMethod = errors.New("websocket: handshake method is not GET")

	// ErrNotWebSocket: the request does not ask to upgrade to websocket
	// ("Connection: Upgrade" and "Upgrade: websocket" on HTTP/1.1;
	// HTTP/1.0 and HTTP/2 cannot upgrade, and RFC 8441's extended CONNECT
	// is not supported); answered 426 with "Upgrade: websocket".
	ErrNotWebSocket = errors.New("websocket: not a WebSocket handshake (HTTP/1.1 GET with Connection: Upgrade and Upgrade: websocket; HTTP/2 extended CONNECT is not supported)")

	// ErrVersion: Sec-WebSocket-Version is not 13 (RFC 6455 §4.2.2);
	// answered 426 with "Sec-WebSocket-Version: 13".
	ErrVersion = errors.New("websocket: unsupported Sec-WebSocket-Version (13 is spoken)")

	// ErrKey: Sec-WebSocket-Key is not the base64 encoding of 16 bytes
	// (RFC 6455 §4.1); answered 400.
	ErrKey = errors.New("websocket: invalid Sec-WebSocket-Key")

	// ErrOrigin: the Origin field is refused (Options.CheckOrigin);
	// answered 403.
	ErrOrigin = errors.New("websocket: origin not allowed")

	// ErrBody: the handshake request has a body (Content-Length other
	// than 0, or chunked), which would precede the frames; answered 400.
	ErrBody = errors.New("websocket: handshake request with a body")
)

// ErrCloseCode is returned by CloseWith for a status code that may not
// be sent in a Close frame (1004-1006, 1015, and outside 1000-4999 but
// 3000-4999; RFC 6455 §7.4).
var ErrCloseCode = errors.New("websocket: status code may not be sent in a Close frame")

// ErrClosed is returned by a Conn's reads and writes after the Close
// handshake started or the connection failed.
var ErrClosed = errors.New("websocket: connection closed")

// StatusCode is a Close frame's status code (RFC 6455 §7.4).
type StatusCode uint16

// Status codes a Conn sends or that a client commonly sends (RFC 6455
// §7.4.1).
const (
	StatusNormalClosure   StatusCode = 1000
	StatusGoingAway       StatusCode = 1001 // idle timeout, server shutdown
	StatusProtocolError   StatusCode = 1002
	StatusUnsupportedData StatusCode = 1003
	StatusNoStatus        StatusCode = 1005 // never sent: a Close frame without a code
	StatusInvalidPayload  StatusCode = 1007 // invalid UTF-8 in a text message or a Close reason
	StatusPolicyViolation StatusCode = 1008
	StatusMessageTooBig   StatusCode = 1009
	StatusInternalError   StatusCode = 1011
)

// CloseError ends a Conn: it is returned by ReadMessage (and Err) once a
// Close frame was sent or received.
type CloseError struct {
	// Code is the status code of the Close: the client's when Local is
	// false (StatusNoStatus when its frame had none), else the server's.
	Code StatusCode
	// Reason is the Close frame's reason text (UTF-8, at most 123 bytes).
	Reason string
	// Local reports whether the server started the Close: a protocol
	// error, a message too big, idle timeout, shutdown, Conn.Close.
	Local bool
}

// Error names who closed, the status code and the reason.
func (e *CloseError) Error() string {
	who := "client"
	if e.Local {
		who = "server"
	}
	if e.Reason == "" {
		return fmt.Sprintf("websocket: closed by the %s with status %d", who, e.Code)
	}
	return fmt.Sprintf("websocket: closed by the %s with status %d (%s)", who, e.Code, e.Reason)
}

// Is makes errors.Is(err, ErrClosed) true for a *CloseError.
func (e *CloseError) Is(target error) bool { return target == ErrClosed }

// failure is a reason to fail the connection: the Close status to send.
type failure struct {
	code   StatusCode
	reason string
}

func (f *failure) Error() string { return "websocket: " + f.reason }

func fail(code StatusCode, reason string) error { return &failure{code, reason} }
