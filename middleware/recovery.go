package middleware

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/stack"
)

// ErrPanic is the error Recovery gives the ErrorHandler with its 500.
var ErrPanic = errors.New("middleware: handler panicked")

// Recovery returns a middleware that recovers a panic of next: it logs
// it to logger (nil: the Server's, Ctx.Logger) at error level, with the
// request's method and path (non-printable bytes escaped as \xHH), request
// ID (if RequestID ran before it) and the stack from the panicking
// function as one attribute per frame ("stack.0", "stack.1", ... in a
// text log; an object in JSON) instead of one line of escaped newlines.
// It then answers 500 through Ctx.Error (ErrPanic): the Server's
// ErrorHandler shapes it, and once part of a streamed response has left
// it is cut short and the connection closed instead. A panic with
// http.ErrAbortHandler is not logged and goes on up, to the server,
// which cuts the response short.
//
// The server recovers handler panics itself (see brisk.Handler); Recovery
// adds the request ID and a logger of your choice, and lets middleware
// outside it (an access log, metrics) see the 500. It allocates only when
// a panic is recovered.
func Recovery(logger *slog.Logger) brisk.Middleware {
	return func(next brisk.Handler) brisk.Handler {
		return func(c *brisk.Ctx) {
			defer func() {
				p := recover()
				if p == nil {
					return
				}
				if p == http.ErrAbortHandler {
					panic(p)
				}
				logPanic(c, logger, p)
				c.Error(500, ErrPanic)
			}()
			next(c)
		}
	}
}

// logPanic logs the recovered panic p of the request c.
func logPanic(c *brisk.Ctx, logger *slog.Logger, p any) {
	if logger == nil {
		logger = c.Logger()
	}
	attrs := []slog.Attr{
		slog.Any("panic", p),
		slog.String("method", logSafe(c.Request.Method())),
		slog.String("path", logSafe(c.Request.Path())),
	}
	if id := GetRequestID(c, ""); id != nil {
		attrs = append(attrs, slog.String("request_id", string(id)))
	}
	attrs = append(attrs, slog.Any("stack", stack.Capture(1)))
	logger.LogAttrs(c.Context(), slog.LevelError, "middleware: handler panic", attrs...)
}
