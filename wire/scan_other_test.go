//go:build !amd64 || purego

package wire

// fieldLinesImpls returns the forms of fieldLines that TestFieldLines
// compares with fieldLinesGeneric: here fieldLines is that Go form.
func fieldLinesImpls() map[string]func(b []byte, ls *lineSpans) int {
	return map[string]func(b []byte, ls *lineSpans) int{"go": fieldLines}
}
