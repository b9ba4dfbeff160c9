//go:build amd64 && !purego

package wire

import "golang.org/x/sys/cpu"

// valueEnd returns the offset of the first byte at or after b[i] that
// cannot be part of a field value (RFC 9110 §5.5): a CTL other than HTAB
// (this includes CR and LF) or DEL; or len(b), also when i >= len(b). It
// tests sixteen bytes at a time with SSE2 (scan_amd64.s); valueEndGeneric
// is the same in Go.
//
//go:noescape
func valueEnd(b []byte, i int) int

// targetStop returns the offset of the first byte at or after b[i] that
// stops a request-target scan (targetEnd): SP, a CTL, DEL or above, '#'
// or '%'; or len(b), also when i >= len(b). It tests sixteen bytes at a
// time with SSE2 (scan_amd64.s); targetStopGeneric is the same in Go.
//
//go:noescape
func targetStop(b []byte, i int) int

// fieldLines records in ls the field lines that end in CRLF at the start
// of b (at most maxSpanInput bytes, none when fewer than 16), split when
// they have the most common shape, as odd spans otherwise, up to
// maxSpans, and returns how many. It walks from line to line, finding
// their CRs in a mask of the stop bytes of lineChunk bytes of b at a
// time, marked with AVX2 when the CPU has it, else SSE2 (fieldLinesAsm).
// It is the fast path of fieldSection (quickFields), which splits every
// other line by splitFieldLine; the tests check it against fieldLinesRef.
func fieldLines(b []byte, ls *lineSpans) int {
	return fieldLinesAsm(b, ls, hasAVX2)
}

// haveFieldLines reports that fieldLines finds lines, so that
// fieldSection takes its fast path (quickFields).
const haveFieldLines = true

// hasAVX2 reports whether the CPU has AVX2 (and the OS saves its
// registers). Read-only after initialization.
var hasAVX2 = cpu.X86.HasAVX2

// fieldLinesAsm is fieldLines in assembly (scan_amd64.s): the mask is
// marked 32 bytes at a time by AVX2 when avx2 is true, which needs
// hasAVX2, else 16 at a time by SSE2.
//
//go:noescape
func fieldLinesAsm(b []byte, ls *lineSpans, avx2 bool) int
