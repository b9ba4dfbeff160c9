package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/metrics"
)

// The access-log formats of -log-format.
const (
	formatText     = "text"     // logfmt, through the server's slog logger
	formatJSON     = "json"     // JSON lines, through the server's slog logger
	formatCommon   = "common"   // Apache/nginx Common Log Format
	formatCombined = "combined" // NCSA combined, then duration, host and request ID
)

// clientErrorSummary is the least time between two lines summing up the
// requests cut short by their clients that were not logged one by one.
const clientErrorSummary = 10 * time.Second

// accessLog writes one line per request answered, from the server's hooks
// only (OnRequestDone, OnReject): every protocol that reaches them is
// logged the same way.
//
// A request that ended with an error of the client's doing (a reset, a
// close, a timeout, a rate below the minimum: metrics.ClientError) is
// logged at level Debug, so that a storm of them does not flood the log at
// the default level Info: those not logged are counted, and summed up in
// one line "requests cut short by clients" (level Info) at most every
// clientErrorSummary, when the next one comes.
type accessLog struct {
	format string
	logger *slog.Logger // the server's: text and json lines, the summaries
	out    io.Writer    // common and combined lines

	mu      sync.Mutex // out, buf, unseen, lastSum
	buf     []byte
	unseen  [len(metrics.ErrorTypes)]int64 // client errors not logged since the last summary, by type
	lastSum time.Time
}

// requestDone is the Server.OnRequestDone of the log.
func (l *accessLog) requestDone(in *brisk.RequestInfo) {
	level := slog.LevelInfo
	if in.Err != nil && metrics.ClientError(in.Err) {
		level = slog.LevelDebug
	}
	if !l.logger.Enabled(context.Background(), level) {
		l.skipped(in.Err)
		return
	}
	switch l.format {
	case formatCommon, formatCombined:
		l.writeLine(func(b []byte) []byte {
			return appendCLF(b, in, requestProto(in), l.format == formatCombined, time.Now())
		})
	default:
		l.logger.LogAttrs(context.Background(), level, "request", requestAttrs(in)...)
	}
}

// reject is the Server.OnReject of the log: a request whose head did not
// parse, which OnRequestDone does not see (Rejection.HeadParsed), is
// logged with what of its request line parsed.
func (l *accessLog) reject(r brisk.Rejection) {
	if r.HeadParsed() || !l.logger.Enabled(context.Background(), slog.LevelInfo) {
		return // requestDone logs it
	}
	in := brisk.RequestInfo{Method: r.Method, Target: r.Target, RemoteAddr: r.RemoteAddr, Status: r.Status}
	switch l.format {
	case formatCommon, formatCombined:
		l.writeLine(func(b []byte) []byte { return appendCLF(b, &in, "", l.format == formatCombined, time.Now()) })
	default:
		attrs := make([]slog.Attr, 0, 6)
		if r.Method != nil {
			attrs = append(attrs, slog.String("method", string(r.Method)))
		}
		if r.Target != nil {
			attrs = append(attrs, slog.String("target", string(r.Target)))
		}
		attrs = append(attrs, slog.Int("status", r.Status), slog.String("error", r.Err.Error()),
			slog.String("client", clientString(&in)), slog.String("remote", addrString(r.RemoteAddr)))
		l.logger.LogAttrs(context.Background(), slog.LevelInfo, "rejected", attrs...)
	}
}

// skipped counts a request not logged because of the level and, when it
// ended with a client error and the last summary is old enough, logs
// the summary.
func (l *accessLog) skipped(err error) {
	if err == nil {
		return
	}
	t := metrics.ErrorType(err)
	now := time.Now()
	l.mu.Lock()
	for i, name := range metrics.ErrorTypes {
		if name == t {
			l.unseen[i]++
		}
	}
	var sum [len(metrics.ErrorTypes)]int64
	due := now.Sub(l.lastSum) >= clientErrorSummary
	if due {
		sum, l.unseen, l.lastSum = l.unseen, sum, now
	}
	l.mu.Unlock()
	if !due {
		return
	}
	attrs := make([]slog.Attr, 0, len(sum))
	for i, n := range sum {
		if n > 0 {
			attrs = append(attrs, slog.Int64(metrics.ErrorTypes[i], n))
		}
	}
	l.logger.LogAttrs(context.Background(), slog.LevelInfo, "requests cut short by their clients (logged one by one with -log-level debug)", attrs...)
}

// writeLine appends a line with appendTo and writes it to l.out.
func (l *accessLog) writeLine(appendTo func([]byte) []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(appendTo(l.buf[:0]), '\n')
	l.out.Write(l.buf)
	if cap(l.buf) > 64<<10 {
		l.buf = nil // one huge line keeps no huge buffer
	}
}

// requestAttrs returns the attributes of a text or json line: method,
// target, proto, status, bytes (of the response, head included, that
// the connection accepted), duration_us (from the parsed head to the
// last byte written, in microseconds), client (the client's address,
// Ctx.ClientIP: a trusted proxy's forwarding field, else the peer's),
// remote (the peer or PROXY source, host:port), host, user_agent,
// referer and request_id when present, error when the request failed or
// its response was cut short. slog escapes what they hold.
func requestAttrs(in *brisk.RequestInfo) []slog.Attr {
	attrs := make([]slog.Attr, 0, 13)
	attrs = append(attrs,
		slog.String("method", string(in.Method)),
		slog.String("target", string(in.Target)),
		slog.String("proto", requestProto(in)),
		slog.Int("status", in.Status),
		slog.Int64("bytes", in.BytesWritten),
		slog.Int64("duration_us", in.Duration.Microseconds()),
		slog.String("client", clientString(in)),
		slog.String("remote", addrString(in.RemoteAddr)))
	for _, f := range [...]struct {
		key string
		v   []byte
	}{{"host", in.Host}, {"user_agent", in.UserAgent}, {"referer", in.Referer}, {"request_id", in.RequestID}} {
		if f.v != nil {
			attrs = append(attrs, slog.String(f.key, string(f.v)))
		}
	}
	if in.Err != nil {
		attrs = append(attrs, slog.String("error", in.Err.Error()))
	}
	return attrs
}

// requestProto returns the protocol of the request (RequestInfo.Proto:
// "HTTP/1.0", "HTTP/1.1", "HTTP/2.0"), "HTTP/1.1" when it is not set.
func requestProto(in *brisk.RequestInfo) string {
	if in.Proto == "" {
		return "HTTP/1.1"
	}
	return in.Proto
}

// appendCLF appends to b the line of in in the Common Log Format
// (Apache's "%h %l %u %t \"%r\" %>s %O", at time now less in.Duration:
// when the request came; the request line "-" when no method parsed, and
// without proto when it is "") or, with combined, the NCSA combined format
// ("... \"%{Referer}i\" \"%{User-Agent}i\"") followed by the duration in
// microseconds (Apache's %D), the host and the request ID, quoted ("-"
// for none). Every byte of a quoted field outside printable ASCII, and
// '"' and '\', is escaped as Apache does (\xhh, \", \\).
func appendCLF(b []byte, in *brisk.RequestInfo, proto string, combined bool, now time.Time) []byte {
	b = append(b, clientString(in)...)
	b = append(b, " - - ["...)
	b = now.Add(-in.Duration).AppendFormat(b, "02/Jan/2006:15:04:05 -0700")
	b = append(b, "] \""...)
	switch {
	case in.Method == nil:
		b = append(b, '-')
	default:
		b = appendEscaped(b, in.Method)
		b = append(b, ' ')
		if in.Target == nil {
			b = append(b, '-')
		}
		b = appendEscaped(b, in.Target)
		if proto != "" {
			b = append(append(b, ' '), proto...)
		}
	}
	b = append(b, "\" "...)
	b = strconv.AppendInt(b, int64(in.Status), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, in.BytesWritten, 10)
	if !combined {
		return b
	}
	b = appendQuoted(append(b, ' '), in.Referer)
	b = appendQuoted(append(b, ' '), in.UserAgent)
	b = strconv.AppendInt(append(b, ' '), in.Duration.Microseconds(), 10)
	b = appendQuoted(append(b, ' '), in.Host)
	return appendQuoted(append(b, ' '), in.RequestID)
}

// appendQuoted appends v escaped in double quotes, or "-" for nil.
func appendQuoted(b, v []byte) []byte {
	if v == nil {
		return append(b, `"-"`...)
	}
	return append(appendEscaped(append(b, '"'), v), '"')
}

// appendEscaped appends v with every byte outside printable ASCII
// escaped as \xhh, and '"' and '\' as \" and \\: nothing a client sends
// can end a field or a line early (log injection).
func appendEscaped(b, v []byte) []byte {
	const hex = "0123456789abcdef"
	for _, c := range v {
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20 || c >= 0x7f:
			b = append(b, '\\', 'x', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return b
}

// clientString returns the client's address: in.ClientIP, else the host
// of in.RemoteAddr, else "-".
func clientString(in *brisk.RequestInfo) string {
	if in.ClientIP.IsValid() {
		return in.ClientIP.String()
	}
	if in.RemoteAddr == nil {
		return "-"
	}
	if host, _, err := net.SplitHostPort(in.RemoteAddr.String()); err == nil {
		return host
	}
	return "-"
}

// addrString is a's "host:port", or "" for none.
func addrString(a net.Addr) string {
	if a == nil {
		return ""
	}
	return a.String()
}

// logRejected returns a brisk.Server.OnReject that logs, as reject does
// in the text or json format of logger, the requests whose head did not
// parse: for a server whose completed requests are logged another way
// (`brisk proxy -log`).
func logRejected(logger *slog.Logger) func(brisk.Rejection) {
	return (&accessLog{format: formatText, logger: logger}).reject
}
