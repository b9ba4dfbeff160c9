package middleware

import (
	"context"
	"errors"
	"time"

	"github.com/brisk-http/brisk"
)

// ErrTimeout is the error Timeout gives the ErrorHandler with its 503.
var ErrTimeout = errors.New("middleware: handler timed out")

// Timeout returns a middleware that gives next a deadline of d from the
// start of the request: Ctx.Context is replaced by a context with that
// deadline (Ctx.SetContext), which the handler passes to what it waits
// on (database calls, HTTP clients, Ctx.Context().Done()). The handler
// is not stopped: a Go function cannot be. When it returns after the
// deadline passed, its response is replaced by 503 Service Unavailable
// through Ctx.Error (ErrTimeout), unless part of a streamed response has
// left, which is then cut short and the connection closed. A d of zero
// or less returns next unchanged. It allocates a context and a timer per
// request, as context.WithTimeout does.
func Timeout(d time.Duration) brisk.Middleware {
	return func(next brisk.Handler) brisk.Handler {
		if d <= 0 {
			return next
		}
		return func(c *brisk.Ctx) {
			ctx, cancel := context.WithTimeout(c.Context(), d)
			defer cancel()
			c.SetContext(ctx)
			next(c)
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				c.Error(503, ErrTimeout)
			}
		}
	}
}
