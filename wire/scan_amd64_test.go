//go:build amd64 && !purego

package wire

// fieldLinesImpls returns the forms of fieldLines that TestFieldLines
// compares with fieldLinesRef: the SSE2 marking, and the AVX2 one
// when the CPU has AVX2.
func fieldLinesImpls() map[string]func(b []byte, ls *lineSpans) int {
	impls := map[string]func(b []byte, ls *lineSpans) int{
		"sse2": func(b []byte, ls *lineSpans) int { return fieldLinesAsm(b, ls, false) },
	}
	if hasAVX2 {
		impls["avx2"] = func(b []byte, ls *lineSpans) int { return fieldLinesAsm(b, ls, true) }
	}
	return impls
}
