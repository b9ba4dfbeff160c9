package wire

import (
	"strconv"

	"github.com/brisk-http/brisk/internal/ascii"
)

// Bytes is the type set of the encoders' arguments: string or []byte, so
// callers need no conversion (and no allocation).
type Bytes interface{ ~string | ~[]byte }

// The encoders append to dst and return the extended slice, like the
// strconv.Append functions; they allocate only when dst must grow. They
// trust their input: it comes from brisk's own code, or was checked with
// ValidFieldName and ValidFieldValue first. Nothing is escaped or refused.

// AppendStatusLine appends the status line "HTTP/1.1 code reason\r\n"
// (RFC 9112 §4). code must be 100..599 (RFC 9110 §15) and is written as three digits. An
// empty reason means StatusText(code); when that is empty too the line is
// "HTTP/1.1 code \r\n" (the SP before the reason phrase is required).
func AppendStatusLine[R Bytes](dst []byte, code int, reason R) []byte {
	c := uint(code)
	dst = append(dst, "HTTP/1.1 "...)
	dst = append(dst, byte('0'+c/100%10), byte('0'+c/10%10), byte('0'+c%10), ' ')
	if len(reason) == 0 {
		dst = append(dst, StatusText(code)...)
	} else {
		dst = append(dst, reason...)
	}
	return append(dst, "\r\n"...)
}

// AppendRequestLine appends the request line "method target HTTP/1.1\r\n"
// (RFC 9112 §3). method must be a token and target a request-target.
func AppendRequestLine[M, T Bytes](dst []byte, method M, target T) []byte {
	dst = append(dst, method...)
	dst = append(dst, ' ')
	dst = append(dst, target...)
	return append(dst, " HTTP/1.1\r\n"...)
}

// AppendField appends the field line "name: value\r\n" (RFC 9112 §5).
// name must satisfy ValidFieldName and value ValidFieldValue; a CR or LF
// in either would split the message.
func AppendField[N, V Bytes](dst []byte, name N, value V) []byte {
	dst = append(dst, name...)
	dst = append(dst, ':', ' ')
	dst = append(dst, value...)
	return append(dst, "\r\n"...)
}

// AppendContentLength appends the field line "Content-Length: n\r\n"
// (RFC 9110 §8.6) with n in decimal. n must not be negative.
func AppendContentLength(dst []byte, n int64) []byte {
	dst = append(dst, "Content-Length: "...)
	dst = strconv.AppendInt(dst, n, 10)
	return append(dst, "\r\n"...)
}

// AppendChunkSize appends the chunk line "hex(n)\r\n" (RFC 9112 §7.1),
// in lowercase hexadecimal without leading zeros and without chunk-ext.
// n must be positive: 0 would be the last chunk (use AppendLastChunk). The
// n bytes of chunk data and a CRLF must follow.
func AppendChunkSize(dst []byte, n int) []byte {
	dst = strconv.AppendUint(dst, uint64(n), 16)
	return append(dst, "\r\n"...)
}

// AppendLastChunk appends the last chunk "0\r\n", the trailer fields as
// field lines, and the final CRLF that ends a chunked body (RFC 9112
// §7.1, §7.1.2). trailers may be empty.
func AppendLastChunk(dst []byte, trailers []Field) []byte {
	dst = append(dst, "0\r\n"...)
	for _, f := range trailers {
		dst = AppendField(dst, f.Name, f.Value)
	}
	return append(dst, "\r\n"...)
}

// ValidFieldName reports whether name is a valid field name: a non-empty
// token (RFC 9110 §5.1, §5.6.2). Use it before emitting a name that did
// not come from brisk's own code.
func ValidFieldName[B Bytes](name B) bool {
	tok, i := ascii.Token, 0
	for ; i+4 <= len(name); i += 4 {
		tok &= ascii.Class[name[i]] & ascii.Class[name[i+1]] & ascii.Class[name[i+2]] & ascii.Class[name[i+3]]
	}
	for ; i < len(name); i++ {
		tok &= ascii.Class[name[i]]
	}
	return len(name) > 0 && tok != 0
}

// ValidFieldValue reports whether value is a valid field value (RFC 9110
// §5.5): only HTAB, SP, visible ASCII and obs-text (0x80-0xFF), with no
// SP or HTAB at either end. It is false for any CR, LF, NUL or other
// control byte, so a value that passes cannot split a message (response
// splitting). The empty value is valid.
func ValidFieldValue[B Bytes](value B) bool {
	n := len(value)
	if n > 0 && (ascii.IsOWS(value[0]) || ascii.IsOWS(value[n-1])) {
		return false
	}
	for i := 0; i < n; i++ {
		if ascii.Class[value[i]]&ascii.FieldVChar == 0 {
			return false
		}
	}
	return true
}

// ascii.IsOWS reports whether c is SP or HTAB.
