package main

import (
	"log/slog"
	"time"

	"github.com/brisk-http/brisk"
)

// accessLog wraps next so that each request, once next returns, is logged
// on logger at level Info with message "request" and the attributes
// method, target (the request-target as received), status (the status
// code the handler set), bytes (the buffered response body length),
// duration (time spent in next) and remote (client address).
func accessLog(logger *slog.Logger, next brisk.Handler) brisk.Handler {
	return func(c *brisk.Ctx) {
		start := time.Now()
		next(c)
		logger.LogAttrs(c.Context(), slog.LevelInfo, "request",
			slog.String("method", string(c.Request.Method())),
			slog.String("target", string(c.Request.Target())),
			slog.Int("status", c.Response.StatusCode()),
			slog.Int("bytes", len(c.Response.Body())),
			slog.Duration("duration", time.Since(start)),
			slog.String("remote", c.RemoteAddr().String()),
		)
	}
}
