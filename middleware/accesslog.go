package middleware

import (
	"context"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/brisk-http/brisk"
)

// AccessFormat is the format of an AccessLog's records.
type AccessFormat int

const (
	// FormatSlog logs one record per request to AccessLog.Logger, message
	// "request", with the attributes method, target, status, bytes_in,
	// bytes_out, duration, remote, and when set route, referer,
	// user_agent and error (strings escaped as by logSafe). Its cost
	// is the slog handler's: it allocates.
	FormatSlog AccessFormat = iota
	// FormatCommon writes the Common Log Format line to AccessLog.Writer:
	// host ident authuser [date] "request-line" status bytes.
	FormatCommon
	// FormatCombined is FormatCommon followed by "Referer" "User-Agent".
	FormatCombined
	// FormatJSON writes one JSON object per line to AccessLog.Writer,
	// with FormatSlog's attributes and "time" (RFC 3339, UTC, with
	// milliseconds); duration is in seconds.
	FormatJSON
)

// AccessLog logs each finished request from Server.OnRequestDone, which
// it is: srv.OnRequestDone = (&middleware.AccessLog{...}).OnRequestDone.
// The completion hook runs after the response's last byte was handed to
// the connection, so the status, byte counts and duration are those of
// the response as sent, including responses the server generated itself
// (after OnReject) and ones cut short (error). HTTP/2 requests are not
// reported by the hook (see Server.OnRequestDone), nor are requests whose
// head does not parse (Server.OnReject has them). Bytes of the request
// (method, target, Referer, User-Agent) are written with every byte that
// is not visible ASCII, and the backslash and double quote, as \xHH,
// except in FormatJSON, which writes JSON strings (control characters,
// '"' and '\\' escaped, invalid UTF-8 replaced by U+FFFD).
//
// The text formats add no allocation per request; FormatSlog allocates
// as its slog handler does. An AccessLog must not be copied after first
// use.
type AccessLog struct {
	// Format selects the format; the zero value is FormatSlog.
	Format AccessFormat
	// Logger receives FormatSlog records at Level. Nil means
	// slog.Default().
	Logger *slog.Logger
	// Level is the level of FormatSlog records; zero is slog.LevelInfo.
	Level slog.Level
	// Writer receives the lines of the other formats, each in one Write
	// call, one call at a time. Nil means the lines are dropped.
	Writer io.Writer

	mu   sync.Mutex
	line []byte
}

// OnRequestDone logs in. It has the type of Server.OnRequestDone.
func (l *AccessLog) OnRequestDone(in *brisk.RequestInfo) {
	if l.Format == FormatSlog {
		l.logSlog(in)
		return
	}
	if l.Writer == nil {
		return
	}
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.line[:0]
	if l.Format == FormatJSON {
		b = appendJSONLine(b, in, now)
	} else {
		b = appendCommonLine(b, in, now, l.Format == FormatCombined)
	}
	l.line = b
	l.Writer.Write(b)
}

// logSlog logs in as a slog record.
func (l *AccessLog) logSlog(in *brisk.RequestInfo) {
	logger := l.Logger
	if logger == nil {
		logger = slog.Default()
	}
	ctx := context.Background()
	if !logger.Enabled(ctx, l.Level) {
		return
	}
	attrs := []slog.Attr{
		slog.String("method", logSafe(in.Method)),
		slog.String("target", logSafe(in.Target)),
		slog.Int("status", in.Status),
		slog.Int64("bytes_in", in.BytesRead),
		slog.Int64("bytes_out", in.BytesWritten),
		slog.Duration("duration", in.Duration),
		slog.String("remote", string(appendHost(nil, in.RemoteAddr))),
	}
	if in.Route != "" {
		attrs = append(attrs, slog.String("route", in.Route))
	}
	if in.Referer != nil {
		attrs = append(attrs, slog.String("referer", logSafe(in.Referer)))
	}
	if in.UserAgent != nil {
		attrs = append(attrs, slog.String("user_agent", logSafe(in.UserAgent)))
	}
	if in.Err != nil {
		attrs = append(attrs, slog.String("error", in.Err.Error()))
	}
	logger.LogAttrs(ctx, l.Level, "request", attrs...)
}

// appendCommonLine appends the Common (or Combined) Log Format line.
func appendCommonLine(b []byte, in *brisk.RequestInfo, now time.Time, combined bool) []byte {
	b = appendHost(b, in.RemoteAddr)
	b = append(b, " - - ["...)
	b = now.AppendFormat(b, "02/Jan/2006:15:04:05 -0700")
	b = append(b, `] "`...)
	if in.Method == nil {
		b = append(b, '-') // a head that did not parse
	} else {
		b = appendSafe(b, in.Method)
		b = append(b, ' ')
		b = appendSafe(b, in.Target)
		b = append(append(b, ' '), in.Proto...)
	}
	b = append(b, `" `...)
	b = strconv.AppendInt(b, int64(in.Status), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, in.BytesWritten, 10)
	if combined {
		b = appendQuotedOrDash(append(b, ' '), in.Referer)
		b = appendQuotedOrDash(append(b, ' '), in.UserAgent)
	}
	return append(b, '\n')
}

// appendQuotedOrDash appends v escaped in double quotes, or "-" for nil.
func appendQuotedOrDash(b, v []byte) []byte {
	if v == nil {
		return append(b, `"-"`...)
	}
	return append(appendSafe(append(b, '"'), v), '"')
}

// appendJSONLine appends the FormatJSON object and a newline.
func appendJSONLine(b []byte, in *brisk.RequestInfo, now time.Time) []byte {
	b = append(b, `{"time":"`...)
	b = now.UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	b = appendJSONString(append(b, `","method":`...), in.Method)
	b = appendJSONString(append(b, `,"target":`...), in.Target)
	b = strconv.AppendInt(append(b, `,"status":`...), int64(in.Status), 10)
	b = strconv.AppendInt(append(b, `,"bytes_in":`...), in.BytesRead, 10)
	b = strconv.AppendInt(append(b, `,"bytes_out":`...), in.BytesWritten, 10)
	b = strconv.AppendFloat(append(b, `,"duration":`...), in.Duration.Seconds(), 'f', -1, 64)
	var host [64]byte
	b = appendJSONString(append(b, `,"remote":`...), appendHost(host[:0], in.RemoteAddr))
	if in.Route != "" {
		b = appendJSONString(append(b, `,"route":`...), []byte(in.Route))
	}
	if in.Referer != nil {
		b = appendJSONString(append(b, `,"referer":`...), in.Referer)
	}
	if in.UserAgent != nil {
		b = appendJSONString(append(b, `,"user_agent":`...), in.UserAgent)
	}
	if in.Err != nil {
		b = appendJSONString(append(b, `,"error":`...), []byte(in.Err.Error()))
	}
	return append(b, "}\n"...)
}

// appendHost appends the IP address of a, "-" when unknown, without
// allocating for TCP and UDP addresses.
func appendHost(b []byte, a net.Addr) []byte {
	switch a := a.(type) {
	case *net.TCPAddr:
		return a.AddrPort().Addr().Unmap().AppendTo(b)
	case *net.UDPAddr:
		return a.AddrPort().Addr().Unmap().AppendTo(b)
	case nil:
		return append(b, '-')
	}
	s := a.String()
	if i := strings.LastIndexByte(s, ':'); i > strings.LastIndexByte(s, ']') {
		s = strings.TrimSuffix(strings.TrimPrefix(s[:i], "["), "]") // host:port
	}
	return appendSafe(b, s)
}

// appendJSONString appends v as a JSON string (RFC 8259 §7): control
// characters, '"' and '\' escaped as \u00HH, valid UTF-8 kept, and each
// byte of invalid UTF-8 replaced by \ufffd, as encoding/json does.
func appendJSONString(b, v []byte) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(v); {
		ch := v[i]
		if ch < utf8.RuneSelf {
			if ch >= ' ' && ch != 0x7f && ch != '\\' && ch != '"' {
				b = append(b, ch)
			} else {
				b = append(b, '\\', 'u', '0', '0', hex[ch>>4], hex[ch&15])
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(v[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, v[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}
