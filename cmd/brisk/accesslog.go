package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/brisk-http/brisk"
)

// accessLog wraps h so that each request, once h returns, is logged on
// logger at level Info with message "request" and the attributes method,
// target (the request-target as received), status (the status code the
// handler set), bytes, duration (time spent in h), remote (client
// address) and, for a body cut short, error.
//
// bytes is the number of body bytes the connection accepted for a body
// the handler streamed (BodyWriter.Sent: less than the file when error is
// set); for a buffered body, written after the handler returns, it is the
// body's length, and 0 for HEAD.
func accessLog(logger *slog.Logger, h brisk.Handler) brisk.Handler {
	return func(c *brisk.Ctx) {
		start := time.Now()
		h(c)
		bw := c.BodyWriter()
		bytes := int64(len(c.Response.Body()))
		if string(c.Request.Method()) == "HEAD" {
			bytes = 0 // the body is not sent
		}
		if bw.Sent() > 0 || bw.Err() != nil {
			bytes = bw.Sent()
		}
		attrs := []slog.Attr{
			slog.String("method", string(c.Request.Method())),
			slog.String("target", string(c.Request.Target())),
			slog.Int("status", c.Response.StatusCode()),
			slog.Int64("bytes", bytes),
			slog.Duration("duration", time.Since(start)),
			slog.String("remote", c.RemoteAddr().String()),
		}
		if err := bw.Err(); err != nil {
			attrs = append(attrs, slog.String("error", err.Error()))
		}
		logger.LogAttrs(c.Context(), slog.LevelInfo, "request", attrs...)
	}
}

// logRejected returns a brisk.Server.OnReject that logs each request the
// server answered before any handler (a head that does not parse, a bad
// target, a body too large) on logger at level Info with message
// "rejected" and the attributes method and target (only those that
// parsed; slog quotes them), status, error and remote.
func logRejected(logger *slog.Logger) func(brisk.Rejection) {
	return func(r brisk.Rejection) {
		attrs := make([]slog.Attr, 0, 5)
		if r.Method != nil {
			attrs = append(attrs, slog.String("method", string(r.Method)))
		}
		if r.Target != nil {
			attrs = append(attrs, slog.String("target", string(r.Target)))
		}
		attrs = append(attrs,
			slog.Int("status", r.Status),
			slog.String("error", r.Err.Error()),
			slog.String("remote", r.RemoteAddr.String()))
		logger.LogAttrs(context.Background(), slog.LevelInfo, "rejected", attrs...)
	}
}
