package reverseproxy

import (
	"context"
	"time"
)

// Record describes one proxied request, for the access log and metrics
// (Proxy.OnComplete). Durations are zero for the phases that did not
// happen (Dial and TLS when a pooled connection was reused).
type Record struct {
	// Upstream is the URL of the upstream of the last attempt ("" when
	// none was chosen).
	Upstream string
	// Status is the upstream's final status code, 0 when no response
	// head arrived.
	Status int
	// Attempts is the number of upstreams the request was sent to.
	Attempts int
	// Start is when the Proxy got the request.
	Start time.Time
	// Dial and TLS are the time spent opening the last connection and in
	// its TLS handshake.
	Dial, TLS time.Duration
	// Head is from the start of the last attempt to its response head.
	Head time.Duration
	// Total is from Start to the end of the response (or of the upgraded
	// connection).
	Total time.Duration
	// Sent is the number of response body bytes written to the client.
	Sent int64
	// Upgraded reports a 101 response: the connection was switched.
	Upgraded bool
	// Err is why the request failed or its response was cut short (an
	// *Error), nil on success.
	Err error
}

// recordKey is the context key under which an exchange's context carries
// its Record, for the dial function.
type recordKey struct{}

// exchangeCtx is the context of the client calls of one exchange: it
// carries the exchange's Record to the dial function, and is never
// cancelled (the attempt is bounded by ResponseHeaderTimeout, the body by
// IdleTimeout). Pooled with the exchange, so it costs no allocation.
type exchangeCtx struct {
	rec *Record
}

func (x *exchangeCtx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (x *exchangeCtx) Done() <-chan struct{}       { return nil }
func (x *exchangeCtx) Err() error                  { return nil }
func (x *exchangeCtx) Value(key any) any {
	if _, ok := key.(recordKey); ok {
		return x.rec
	}
	return nil
}

var _ context.Context = (*exchangeCtx)(nil)
