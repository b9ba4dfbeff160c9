package brisk

import "github.com/brisk-http/brisk/internal/ascii"

// Validation of handler-set response fields, so that a handler cannot split
// a response (inject CR/LF) or emit a field the peer would reject.

// validFieldName reports whether b is a token (RFC 9110 §5.1).
func validFieldName(b []byte) bool { return ascii.IsTokenString(b) }

// validFieldValue reports whether b is a field value without CTLs other
// than HTAB and without leading or trailing whitespace (RFC 9110 §5.5).
func validFieldValue(b []byte) bool {
	n := len(b)
	return validReason(b) && (n == 0 || !isOWS(b[0]) && !isOWS(b[n-1]))
}

// validReason reports whether b may be a reason-phrase (RFC 9112 §4): no
// CTL other than HTAB.
func validReason(b []byte) bool {
	for _, c := range b {
		if (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}
