package middleware

import (
	"crypto/rand"
	"encoding/hex"
	"sync"

	"github.com/brisk-http/brisk"
)

// DefaultRequestIDField is the field RequestID uses when
// RequestIDConfig.Field is empty.
const DefaultRequestIDField = "X-Request-ID"

// maxRequestID is the longest request ID kept from a request, in bytes.
const maxRequestID = 128

// RequestIDConfig configures RequestID.
type RequestIDConfig struct {
	// Field names the field carrying the ID, on the request (for the
	// handler and what it forwards) and the response. Empty means
	// DefaultRequestIDField.
	Field string

	// TrustIncoming keeps the ID a request already carries, when it is 1
	// to 128 bytes of letters, digits and "-._:" (so it is safe in logs
	// and fields) and the only one (else the request gets a new ID): for
	// a service behind a proxy that sets it. Off (the
	// default), every request gets a new ID, replacing the client's.
	TrustIncoming bool
}

// RequestID returns a middleware that gives each request an ID: a new
// one is 32 lower-case hexadecimal digits, 128 bits from crypto/rand. It
// sets the ID as the request's field (replacing any; what the handler
// forwards, e.g. through a proxy, carries it) and the response's, where
// GetRequestID finds it, before next runs: error responses (Ctx.Error)
// and streamed ones carry it too. A request the server refuses before
// the Handler (a malformed head, a Content-Length over MaxBodyBytes)
// gets none.
func RequestID(cfg RequestIDConfig) brisk.Middleware {
	field := cfg.Field
	if field == "" {
		field = DefaultRequestIDField
	}
	name := []byte(field)
	pool := sync.Pool{New: func() any { return new([16 + 32]byte) }}
	return func(next brisk.Handler) brisk.Handler {
		return func(c *brisk.Ctx) {
			id := c.Request.Header.Get(field)
			var buf *[48]byte
			if !cfg.TrustIncoming || !validRequestID(id) || !single(&c.Request.Header, field) {
				buf = pool.Get().(*[48]byte)
				rand.Read(buf[:16])
				hex.Encode(buf[16:], buf[:16])
				id = buf[16:]
				c.Request.Header.SetBytes(name, id)
			}
			c.Response.Header.SetBytes(name, id)
			if buf != nil {
				pool.Put(buf) // both Headers copied it
			}
			next(c)
		}
	}
}

// GetRequestID returns the ID RequestID set on c's response under field
// (DefaultRequestIDField when empty), nil when none. It aliases the
// response's storage: valid until the handler returns.
func GetRequestID(c *brisk.Ctx, field string) []byte {
	if field == "" {
		field = DefaultRequestIDField
	}
	return c.Response.Header.Get(field)
}

// single reports whether h has at most one field named name: a request
// with two IDs (one a client's own, unchecked) keeps neither.
func single(h *brisk.Header, name string) bool {
	n := 0
	for range h.Values(name) {
		n++
	}
	return n <= 1
}

// validRequestID reports whether id may be kept from a request.
func validRequestID(id []byte) bool {
	if len(id) == 0 || len(id) > maxRequestID {
		return false
	}
	for _, b := range id {
		switch {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9', b == '-', b == '.', b == '_', b == ':':
		default:
			return false
		}
	}
	return true
}
