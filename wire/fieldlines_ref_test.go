package wire

import "bytes"

// fieldLinesRef is what fieldLines does, in Go, for the tests: from the start of b, while a
// line's first stop byte (a CTL, HTAB included, or DEL) other than HTAB
// is a CR, less than lineChunk bytes from its start and not at it,
// followed by LF. A line is odd (oddLine, only name and end set) when it
// holds an HTAB or does not have the usual shape: a colon after 1 to
// maxNameBytes bytes, and a value (after the colon and at most one SP)
// that neither starts nor ends with SP. A name is looked up by
// commonName when b holds the 8 bytes from its start; another is known
// to be of no interest when all its bytes are letters, digits or '-' and
// b holds the 32 bytes from its start.
func fieldLinesRef(b []byte, ls *lineSpans) int {
	if len(b) < 16 {
		return 0
	}
	k, p := 0, 0
	for k < len(ls) && p < len(b) {
		lim := min(len(b), p+lineChunk)
		e, odd := p+ctlIndex(b[p:lim]), false
		for e > p && e < lim && b[e] == '\t' {
			e, odd = e+1+ctlIndex(b[e+1:lim]), true
		}
		if e == p || e == lim || e+1 >= len(b) || b[e] != '\r' || b[e+1] != '\n' {
			break
		}
		c := p + bytes.IndexByte(b[p:min(e, p+maxNameBytes+1)], ':')
		start := c + 1
		if start < e && b[start] == ' ' {
			start++
		}
		if odd || c <= p || start < e && (b[start] == ' ' || b[e-1] == ' ') {
			ls[k] = lineSpan{name: uint16(p), end: uint16(e), id: oddLine}
			k++
			p = e + 2
			continue
		}
		id := notCommon
		if len(b)-p >= 8 {
			if common, ok := commonName(b[p:], c-p); ok {
				id = common
			} else if len(b)-p >= 32 && plainNameRef(b[p:c]) {
				id = fieldOther
			}
		}
		ls[k] = lineSpan{name: uint16(p), colon: uint16(c), start: uint16(start), end: uint16(e), id: id}
		k++
		p = e + 2
	}
	return k
}

// plainNameRef reports whether name is all letters, digits or '-'.
func plainNameRef(name []byte) bool {
	for _, c := range name {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
