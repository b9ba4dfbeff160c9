package middleware

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/brisk-http/brisk"
)

// AccessFormat is the format of an AccessLog's records.
type AccessFormat int

const (
	// FormatSlog logs each record to AccessLog.Logger, with the message
	// "request" (or "rejected") and the fields of AccessLog as
	// attributes: text or JSON as the Logger's handler writes them. The
	// values are the client's bytes as received: slog's TextHandler
	// quotes and JSONHandler escapes whatever could end a record; a
	// handler of your own must do as much. It allocates as slog does.
	FormatSlog AccessFormat = iota
	// FormatCommon writes the Common Log Format line to AccessLog.Writer:
	//
	//	client - - [time] "method target proto" status bytes
	//
	// with time the request's arrival (the end less the duration), in
	// the local time zone ("02/Jan/2006:15:04:05 -0700"); the request
	// line is "-" when no method parsed, and lacks the proto when it is
	// not known (a rejected head).
	FormatCommon
	// FormatCombined is FormatCommon's line followed by the NCSA
	// combined fields and three more:
	//
	//	... "referer" "user_agent" duration_us "host" "request_id"
	//
	// Absent quoted fields are "-". Readers of the NCSA combined format
	// that stop after the User-Agent read it as combined.
	FormatCombined
	// FormatJSON writes one JSON object per line (RFC 8259) to
	// AccessLog.Writer: "time" (the end of the request, RFC 3339 with
	// nanoseconds, local time zone), "level", "msg" ("request" or
	// "rejected"), then the fields of AccessLog; numbers are numbers,
	// strings are JSON strings (invalid UTF-8 replaced by U+FFFD). It is
	// the record FormatSlog gives slog.NewJSONHandler, without slog.
	FormatJSON
)

// DefaultClientErrorSummary is the default of
// AccessLog.ClientErrorSummary.
const DefaultClientErrorSummary = 10 * time.Second

// AccessLog logs each request the server answered. Install both hooks:
//
//	log := &middleware.AccessLog{Format: middleware.FormatCombined, Writer: os.Stdout}
//	srv.OnRequestDone, srv.OnReject = log.OnRequestDone, log.OnReject
//
// OnRequestDone logs every request that reached the Handler or was
// answered after its head parsed (brisk.RequestInfo): once its response's
// last byte was handed to the connection, so the status and byte counts
// are those sent, including responses the server generated itself and
// ones cut short (error). OnReject logs the requests whose head did not
// parse (400, 414, 431, 501, 505: brisk.Rejection.HeadParsed false),
// which OnRequestDone does not see; it leaves the others to
// OnRequestDone.
//
// What is logged is the same on every protocol the Server speaks:
// HTTP/1.1 and 1.0, over TLS or not; h2 and h2c through package h2's
// bridge and HTTP/3 through package h3's, one record per stream that
// reached the Handler, with proto "HTTP/2.0" or "HTTP/3.0" (a stream
// refused before, such as REFUSED_STREAM, is not logged: the HTTP/2
// server answers it); behind a PROXY header, where remote is the PROXY
// source and client too (unless a trusted forwarding field says
// otherwise); and for a connection a handler took over (101 Switching
// Protocols, Ctx.Upgrade, Hijack, Tunnel): one record when the handler
// returns, with status 101 (or the Tunnel's 2xx) and the bytes written
// before the hand-over, not the bytes of the new protocol. A connection
// with no request (a failed TLS handshake, one refused at MaxConns, a
// head cut short by the client) has no record.
//
// The fields, in order (FormatSlog and FormatJSON name them; Common and
// Combined place them):
//
//   - method: the request method, as received.
//   - target: the request-target, as received (not decoded, query
//     included).
//   - proto: "HTTP/1.0", "HTTP/1.1", "HTTP/2.0" or "HTTP/3.0".
//   - status: the status code sent, including one the server set after
//     the Handler (400, 408, 413 for a body that failed).
//   - bytes: the bytes of the response (head, body, interim 1xx
//     responses) that the connection accepted (Apache's %O); on h2 and
//     h3, the head counts in its HTTP/1.1 form (brisk.RequestInfo).
//   - duration_us: from the parsed request head to the response's last
//     byte accepted, in microseconds.
//   - client: the client's IP address: brisk.RequestInfo.ClientIP (a
//     trusted proxy's forwarding field, Server.TrustedProxies), else
//     the IP of remote; "-" when unknown.
//   - remote: the client's network address, host:port, as
//     Ctx.RemoteAddr gives it: the PROXY source, else the peer.
//   - host, user_agent, referer, request_id: the request's Host (or
//     absolute-form authority), User-Agent, Referer and X-Request-ID,
//     each only when the request has it.
//   - error: why the request failed or its response was cut short
//     (brisk.RequestInfo.Err), only then.
//
// A rejected head's record ("rejected") has method and target when they
// parsed, status, error, client (remote's IP: no field was read) and
// remote; in Common and Combined, bytes and duration_us are 0 (its
// response is written after the hook).
//
// In Common and Combined, the client's bytes in a quoted field (and in
// the request line) are escaped: every byte outside printable ASCII as
// \xhh, '"' and '\' as \" and \\, as Apache does; a client cannot end a
// field or a line early. The text formats (Common, Combined, JSON) add
// no allocation per request; FormatSlog allocates as slog does. An
// AccessLog must not be copied after first use; its methods are safe for
// concurrent use.
type AccessLog struct {
	// Format selects the format; the zero value is FormatSlog.
	Format AccessFormat

	// Logger receives FormatSlog records and, in every format, the
	// summaries of ClientErrorSummary. It also decides, in every format,
	// which records are written: those at a level Logger is enabled for
	// (slog.Logger.Enabled). Nil means slog.Default().
	Logger *slog.Logger

	// Level is the level of a record; zero is slog.LevelInfo.
	Level slog.Level

	// ClientErrorLevel is the level of the record of a request its
	// client cut short (brisk.ClassifyError(in.Err).ClientCaused(): a
	// reset, a close, a timeout, a rate below the minimum), so that a
	// storm of them need not flood the log: set it below Level, e.g.
	// slog.LevelDebug. Zero is slog.LevelInfo, as for Level.
	ClientErrorLevel slog.Level

	// ClientErrorSummary is the least time between two summaries of the
	// requests cut short by their clients that were not logged because
	// Logger is not enabled for ClientErrorLevel (when it differs from
	// Level; else none are summed up): they are counted by class and,
	// when one comes at least ClientErrorSummary after the last
	// summary, summed up in one record to Logger at Level, with the
	// message "requests cut short by their clients, not logged one by
	// one" and the counts as attributes (reset=3 timeout=1, the names of
	// brisk.ErrorClass). The first one is summed up at once. Zero means
	// DefaultClientErrorSummary (10 s); negative means no summary.
	ClientErrorSummary time.Duration

	// Writer receives the lines of FormatCommon, FormatCombined and
	// FormatJSON, each in one Write call, one call at a time; its errors
	// are ignored. Nil means the lines are dropped.
	Writer io.Writer

	mu      sync.Mutex // line, fields, client, remote, unseen, lastSum, and Writer's calls
	line    []byte
	fields  [14]accessField
	client  []byte
	remote  []byte
	unseen  [brisk.NumErrorClasses]int64 // client errors not logged since the last summary
	lastSum time.Time
}

// OnRequestDone logs in. It has the type of Server.OnRequestDone.
func (l *AccessLog) OnRequestDone(in *brisk.RequestInfo) {
	logger, level := l.logger(), l.Level
	class := brisk.ErrorOther
	if in.Err != nil && l.ClientErrorLevel != l.Level {
		if class = brisk.ClassifyError(in.Err); class.ClientCaused() {
			level = l.ClientErrorLevel
		}
	}
	if !logger.Enabled(context.Background(), level) {
		if class.ClientCaused() {
			l.unlogged(logger, class)
		}
		return
	}
	l.log(logger, level, in, false)
}

// OnReject logs r when its head did not parse (r.HeadParsed false; the
// others reach OnRequestDone). It has the type of Server.OnReject.
func (l *AccessLog) OnReject(r brisk.Rejection) {
	logger := l.logger()
	if r.HeadParsed() || !logger.Enabled(context.Background(), l.Level) {
		return
	}
	in := brisk.RequestInfo{Method: r.Method, Target: r.Target, RemoteAddr: r.RemoteAddr, Status: r.Status, Err: r.Err}
	l.log(logger, l.Level, &in, true)
}

// log writes the record of in (a rejected head's when rejected) at level.
func (l *AccessLog) log(logger *slog.Logger, level slog.Level, in *brisk.RequestInfo, rejected bool) {
	msg := "request"
	if rejected {
		msg = "rejected"
	}
	if l.Format == FormatSlog {
		var client, remote [64]byte
		fields := recordFields(make([]accessField, 0, len(l.fields)), in, rejected,
			appendClient(client[:0], in), appendAddr(remote[:0], in.RemoteAddr))
		logger.LogAttrs(context.Background(), level, msg, slogAttrs(fields)...)
		return
	}
	if l.Writer == nil {
		return
	}
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.client = appendClient(l.client[:0], in)
	b := l.line[:0]
	switch l.Format {
	case FormatJSON:
		l.remote = appendAddr(l.remote[:0], in.RemoteAddr)
		b = appendJSONLine(b, now, level, msg, recordFields(l.fields[:0], in, rejected, l.client, l.remote))
	default:
		b = appendCommonLine(b, in, l.client, now, l.Format == FormatCombined)
	}
	l.Writer.Write(b)
	l.line = b
	if cap(b) > 64<<10 {
		l.line = nil // one huge line keeps no huge buffer
	}
}

// logger returns l.Logger, or slog.Default() when nil.
func (l *AccessLog) logger() *slog.Logger {
	if l.Logger != nil {
		return l.Logger
	}
	return slog.Default()
}

// unlogged counts a request cut short by its client that was not logged
// and, when the last summary is ClientErrorSummary old, logs a summary.
func (l *AccessLog) unlogged(logger *slog.Logger, class brisk.ErrorClass) {
	every := l.ClientErrorSummary
	if every < 0 {
		return
	}
	if every == 0 {
		every = DefaultClientErrorSummary
	}
	now := time.Now()
	var sum [brisk.NumErrorClasses]int64
	l.mu.Lock()
	l.unseen[class]++
	due := now.Sub(l.lastSum) >= every
	if due {
		sum, l.unseen, l.lastSum = l.unseen, sum, now
	}
	l.mu.Unlock()
	if !due {
		return
	}
	attrs := make([]slog.Attr, 0, len(sum))
	for c, n := range sum {
		if n > 0 {
			attrs = append(attrs, slog.Int64(brisk.ErrorClass(c).String(), n))
		}
	}
	logger.LogAttrs(context.Background(), l.Level, "requests cut short by their clients, not logged one by one", attrs...)
}
