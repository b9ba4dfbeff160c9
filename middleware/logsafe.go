package middleware

// logSafe returns b for a log line, every byte that is not visible ASCII
// (and the backslash and double quote) written as \xHH: a log never
// carries raw client bytes (CR, LF, terminal escapes, invalid UTF-8), and
// a quoted field of the common log format cannot be closed early.
func logSafe(b []byte) string { return string(appendSafe(nil, b)) }

// appendSafe appends b to dst, escaped as logSafe does.
func appendSafe[T string | []byte](dst []byte, b T) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(b); i++ {
		ch := b[i]
		if ch > ' ' && ch < 0x7f && ch != '\\' && ch != '"' {
			dst = append(dst, ch)
		} else {
			dst = append(dst, '\\', 'x', hex[ch>>4], hex[ch&15])
		}
	}
	return dst
}
