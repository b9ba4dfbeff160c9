package brisk

// Validation of handler-set response fields, so that a handler cannot split
// a response (inject CR/LF) or emit a field the peer would reject.

// tchar reports the token characters of RFC 9110 §5.6.2.
var tchar = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-32] = true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()

// validFieldName reports whether b is a token (RFC 9110 §5.1).
func validFieldName(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !tchar[c] {
			return false
		}
	}
	return true
}

// validFieldValue reports whether b is a field value without CTLs other
// than HTAB and without leading or trailing whitespace (RFC 9110 §5.5).
func validFieldValue(b []byte) bool {
	for _, c := range b {
		if (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	if n := len(b); n > 0 && (isSpace(b[0]) || isSpace(b[n-1])) {
		return false
	}
	return true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// validReason reports whether b may be a reason-phrase (RFC 9112 §4).
func validReason(b []byte) bool {
	for _, c := range b {
		if (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}
