//go:build !amd64 || purego

package wire

// valueEnd returns the offset of the first byte at or after b[i] that
// cannot be part of a field value (RFC 9110 §5.5): a CTL other than HTAB
// (this includes CR and LF) or DEL; or len(b), also when i >= len(b).
func valueEnd(b []byte, i int) int { return valueEndGeneric(b, i) }

// targetStop returns the offset of the first byte at or after b[i] that
// stops a request-target scan (targetEnd): SP, a CTL, DEL or above, '#'
// or '%'; or len(b), also when i >= len(b).
func targetStop(b []byte, i int) int { return targetStopGeneric(b, i) }

// fieldLines records in ls the field lines that end in CRLF at the start
// of b (at most maxSpanInput bytes, none when fewer than 16), split when
// they have the most common shape, as odd spans otherwise, up to
// maxSpans, and returns how many.
func fieldLines(b []byte, ls *lineSpans) int { return fieldLinesGeneric(b, ls) }
