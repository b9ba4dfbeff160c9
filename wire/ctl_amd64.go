//go:build amd64 && !purego

package wire

// valueEnd returns the offset of the first byte at or after b[i] that
// cannot be part of a field value (RFC 9110 §5.5): a CTL other than HTAB
// (this includes CR and LF) or DEL; or len(b), also when i >= len(b). It
// tests sixteen bytes at a time with SSE2 (ctl_amd64.s); valueEndGeneric
// is the same in Go.
//
//go:noescape
func valueEnd(b []byte, i int) int

// targetStop returns the offset of the first byte at or after b[i] that
// stops a request-target scan (targetEnd): SP, a CTL, DEL or above, '#'
// or '%'; or len(b), also when i >= len(b). It tests sixteen bytes at a
// time with SSE2 (ctl_amd64.s); targetStopGeneric is the same in Go.
//
//go:noescape
func targetStop(b []byte, i int) int

// fieldLines records in ls the field lines of the most common shape at
// the start of b (at most maxSpanInput bytes, none when fewer than 16),
// up to maxSpans, and returns how many; fieldLinesGeneric is the same in
// Go. It walks from line to line, finding their CRs in a mask of the stop
// bytes of lineChunk bytes of b at a time, marked with SSE2
// (ctl_amd64.s).
//
//go:noescape
func fieldLines(b []byte, ls *lineSpans) int

// originLine reports the most common request line at b[pos:]: a common
// method (lookAheadMethod), SP, an origin-form request-target without
// pct-encoding (targetStop stops at its end), SP, HTTP/1.1 and CRLF. It
// returns the method's length and the offset of the SP after the target,
// or m == 0 for any other line. It compares words and scans the target
// sixteen bytes at a time with SSE2 (ctl_amd64.s); originLineGeneric is
// the same in Go.
//
//go:noescape
func originLine(b []byte, pos int) (m, sp int)
