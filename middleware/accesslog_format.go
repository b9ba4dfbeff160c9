package middleware

import (
	"log/slog"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/brisk-http/brisk"
)

// appendCommonLine appends in's line in the Common Log Format (Apache's
// "%h %l %u %t \"%r\" %>s %O", %t the arrival: now less in.Duration) or,
// with combined, FormatCombined's, and a newline. client is the client's
// IP, as appendClient gives it.
func appendCommonLine(b []byte, in *brisk.RequestInfo, client []byte, now time.Time, combined bool) []byte {
	b = append(b, client...)
	b = append(b, " - - ["...)
	b = now.Add(-in.Duration).AppendFormat(b, "02/Jan/2006:15:04:05 -0700")
	b = append(b, `] "`...)
	if in.Method == nil {
		b = append(b, '-')
	} else {
		b = append(appendEscaped(b, in.Method), ' ')
		if in.Target == nil {
			b = append(b, '-')
		}
		b = appendEscaped(b, in.Target)
		if in.Proto != "" {
			b = append(append(b, ' '), in.Proto...)
		}
	}
	b = strconv.AppendInt(append(b, `" `...), int64(in.Status), 10)
	b = strconv.AppendInt(append(b, ' '), in.BytesWritten, 10)
	if combined {
		b = appendQuoted(append(b, ' '), in.Referer)
		b = appendQuoted(append(b, ' '), in.UserAgent)
		b = strconv.AppendInt(append(b, ' '), in.Duration.Microseconds(), 10)
		b = appendQuoted(append(b, ' '), in.Host)
		b = appendQuoted(append(b, ' '), in.RequestID)
	}
	return append(b, '\n')
}

// appendQuoted appends v escaped in double quotes, "-" for nil.
func appendQuoted(b, v []byte) []byte {
	if v == nil {
		return append(b, `"-"`...)
	}
	return append(appendEscaped(append(b, '"'), v), '"')
}

// appendJSONLine appends the FormatJSON object of a record with the
// given time, level, message and fields, and a newline.
func appendJSONLine(b []byte, now time.Time, level slog.Level, msg string, fields []accessField) []byte {
	b = append(b, `{"time":"`...)
	b = now.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","level":"`...)
	b, _ = level.AppendText(b)
	b = appendJSONString(append(b, `","msg":`...), msg)
	for _, f := range fields {
		b = append(append(append(b, `,"`...), f.key...), `":`...)
		switch {
		case f.isNum:
			b = strconv.AppendInt(b, f.n, 10)
		case f.b != nil:
			b = appendJSONString(b, f.b)
		default:
			b = appendJSONString(b, f.s)
		}
	}
	return append(b, "}\n"...)
}

// appendJSONString appends v as a JSON string (RFC 8259 §7) as
// log/slog's JSONHandler does: '"', '\', \n, \r and \t escaped as such,
// other control characters and DEL as \u00hh,
// valid UTF-8 kept but for U+2028 and U+2029 (escaped), and each byte
// of invalid UTF-8 replaced by \ufffd.
func appendJSONString[T string | []byte](b []byte, v T) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(v); {
		ch := v[i]
		if ch < utf8.RuneSelf {
			switch {
			case ch == '"' || ch == '\\':
				b = append(b, '\\', ch)
			case ch == '\n':
				b = append(b, `\n`...)
			case ch == '\r':
				b = append(b, `\r`...)
			case ch == '\t':
				b = append(b, `\t`...)
			case ch < ' ' || ch == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hex[ch>>4], hex[ch&15])
			default:
				b = append(b, ch)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(string(v[i:min(i+utf8.UTFMax, len(v))]))
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, `\u202`...)
			b = append(b, hex[r&15])
		default:
			b = append(b, v[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}
