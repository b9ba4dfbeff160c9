package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/wire"
)

// logRequest returns a brisk.Server.OnRequestDone that logs each request
// as it was answered, once its response is written or cut short, on
// logger at level Info with message "request" and the attributes method
// and target (as received), status (the status code sent, including the
// server's own answer after the handler: 408 for a body too slow, 400
// for bad chunk framing, 413 for a body too large), bytes (the bytes of
// the response, head included, that the connection accepted: fewer than
// the response when error is set), duration (from the parsed head to the
// last byte written), remote (the client's address) and, when the request
// failed or its response was cut short, error.
func logRequest(logger *slog.Logger) func(*brisk.RequestInfo) {
	return func(in *brisk.RequestInfo) {
		attrs := make([]slog.Attr, 0, 7)
		attrs = append(attrs,
			slog.String("method", string(in.Method)),
			slog.String("target", string(in.Target)),
			slog.Int("status", in.Status),
			slog.Int64("bytes", in.BytesWritten),
			slog.Duration("duration", in.Duration),
			slog.String("remote", addrString(in.RemoteAddr)))
		if in.Err != nil {
			attrs = append(attrs, slog.String("error", in.Err.Error()))
		}
		logger.LogAttrs(context.Background(), slog.LevelInfo, "request", attrs...)
	}
}

// logRejected returns a brisk.Server.OnReject that logs each request the
// server answered because its head does not parse on logger at level
// Info with message "rejected" and the attributes method and target (only
// those that parsed; slog quotes them), status, error and remote. The
// server's other rejections are of requests whose head parsed, which
// OnRequestDone reports too: logRequest logs them (see afterHead).
func logRejected(logger *slog.Logger) func(brisk.Rejection) {
	return func(r brisk.Rejection) {
		if afterHead(r) {
			return // logRequest logs it
		}
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
			slog.String("remote", addrString(r.RemoteAddr)))
		logger.LogAttrs(context.Background(), slog.LevelInfo, "rejected", attrs...)
	}
}

// afterHead reports whether r is for a request whose head parsed, which
// Server.OnRequestDone reports too: as brisk.Rejection lists them, a
// Content-Length above MaxBodyBytes (ErrBodyTooLarge, 413) or a
// request-target that does not decode (ErrTargetForm, ErrInvalidHost,
// ErrPathEscape: no *wire.Error); a head that does not parse fails with a
// *wire.Error of another kind. TestServeAccessLogBodyErrors and
// TestServeLogRejected pin the split.
func afterHead(r brisk.Rejection) bool {
	return errors.Is(r.Err, brisk.ErrBodyTooLarge) || wire.KindOf(r.Err) == 0
}

// logHTTP2 wraps h so that each HTTP/2 request, which
// brisk.Server.OnRequestDone does not report, is logged as logRequest
// logs, when h returns: status is the one h set and bytes the body's
// (BodyWriter.Sent for a body h streamed, else its length; 0 for HEAD),
// duration the time spent in h; error is that of a streamed body cut
// short.
func logHTTP2(logger *slog.Logger, h brisk.Handler) brisk.Handler {
	log := logRequest(logger)
	return func(c *brisk.Ctx) {
		start := time.Now()
		h(c)
		bw := c.BodyWriter()
		in := brisk.RequestInfo{Method: c.Request.Method(), Target: c.Request.Target(),
			RemoteAddr: c.RemoteAddr(), Status: c.Response.StatusCode(),
			BytesWritten: int64(len(c.Response.Body())), Err: bw.Err()}
		if string(in.Method) == "HEAD" {
			in.BytesWritten = 0 // the body is not sent
		}
		if bw.Sent() > 0 || in.Err != nil {
			in.BytesWritten = bw.Sent()
		}
		in.Duration = time.Since(start)
		log(&in)
	}
}

// addrString is a's "host:port", or "" for none.
func addrString(a net.Addr) string {
	if a == nil {
		return ""
	}
	return a.String()
}
