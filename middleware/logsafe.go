package middleware

// logSafe returns b for a log record, escaped as appendEscaped does.
func logSafe(b []byte) string { return string(appendEscaped(nil, b)) }

// appendEscaped appends b to dst with every byte outside printable ASCII
// written as \xhh, and the double quote and backslash as \" and \\, as
// Apache's access log does: a log never carries raw client bytes (CR,
// LF, terminal escapes, invalid UTF-8), and a quoted field cannot be
// closed early (log injection).
func appendEscaped[T string | []byte](dst []byte, b T) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(b); i++ {
		switch ch := b[i]; {
		case ch == '"' || ch == '\\':
			dst = append(dst, '\\', ch)
		case ch < ' ' || ch >= 0x7f:
			dst = append(dst, '\\', 'x', hex[ch>>4], hex[ch&15])
		default:
			dst = append(dst, ch)
		}
	}
	return dst
}
