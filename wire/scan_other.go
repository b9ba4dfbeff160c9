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

// fieldLines finds no lines here: without the assembly walk,
// splitFieldLine splits every field line.
func fieldLines(b []byte, ls *lineSpans) int { return 0 }

// haveFieldLines reports that fieldLines finds lines, so that
// fieldSection takes its fast path (quickFields).
const haveFieldLines = false
