package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/metrics"
	"github.com/brisk-http/brisk/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// The access-log formats of -log-format.
const (
	formatText     = "text"     // key=value, through the server's slog logger
	formatJSON     = "json"     // JSON lines, through the server's slog logger
	formatCommon   = "common"   // Apache/nginx Common Log Format
	formatCombined = "combined" // NCSA combined, then duration, host and request ID
)

// observeOptions are the flags of `brisk serve` for its logs: the
// access-log format (-log-format) and the level of the server's log
// (-log-level).
type observeOptions struct {
	format string     // formatText (""), formatJSON, formatCommon, formatCombined
	level  slog.Level // the least level logged
}

func (o *observeOptions) addFlags(fs *flag.FlagSet) {
	fs.Func("log-format", "the `format` of the -log lines: text (key=value, the default), json (JSON lines, as the\n"+
		"server's own log then is), common (Apache/nginx Common Log Format) or combined (NCSA combined,\n"+
		"then the duration in microseconds, the host and the request ID)", o.setFormat)
	fs.Func("log-level", "log records of `level` and above: debug, info (the default), warn or error; above debug,\n"+
		"requests cut short by their clients (resets, timeouts) are not logged one by one but counted, in\n"+
		"one line at most every 10 s", o.setLevel)
}

func (o *observeOptions) setFormat(v string) error {
	switch v {
	case formatText, formatJSON, formatCommon, formatCombined:
		o.format = v
		return nil
	}
	return fmt.Errorf("%q is not text, json, common or combined", v)
}

func (o *observeOptions) setLevel(v string) error {
	switch strings.ToLower(v) {
	case "debug":
		o.level = slog.LevelDebug
	case "info":
		o.level = slog.LevelInfo
	case "warn":
		o.level = slog.LevelWarn
	case "error":
		o.level = slog.LevelError
	default:
		return fmt.Errorf("%q is not debug, info, warn or error", v)
	}
	return nil
}

// logger returns the server's logger, writing to stderr at o.level and
// above: JSON lines with -log-format json, else key=value text.
func (o *observeOptions) logger(stderr io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: o.level}
	if o.format == formatJSON {
		return slog.New(slog.NewJSONHandler(stderr, opts))
	}
	return slog.New(slog.NewTextHandler(stderr, opts))
}

// installLog sets srv's OnRequestDone and OnReject to a
// middleware.AccessLog in o.format: common and combined lines to stderr,
// text and json records through logger, which also decides the level:
// requests cut short by their clients are at level debug, summed up at
// level info when not logged.
func (o *observeOptions) installLog(srv *brisk.Server, logger *slog.Logger, stderr io.Writer) {
	l := &middleware.AccessLog{Logger: logger, Writer: stderr, ClientErrorLevel: slog.LevelDebug}
	switch o.format {
	case formatCommon:
		l.Format = middleware.FormatCommon
	case formatCombined:
		l.Format = middleware.FormatCombined
	}
	srv.OnRequestDone, srv.OnReject = l.OnRequestDone, l.OnReject
}

// installMetrics registers srv's metrics with reg (metrics.HTTPServer:
// the OpenTelemetry HTTP server metrics, connections by state, TLS
// handshakes, rejected requests; the failed accepts), the Go runtime's
// (go_*) and the process's (process_*: CPU, memory, open file
// descriptors), and chains them to srv's hooks.
func installMetrics(srv *brisk.Server, reg *prometheus.Registry) {
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		metrics.AcceptErrors(srv))
	metrics.Install(srv, metrics.NewHTTPServer(reg))
}
