//go:build !amd64 || purego

package wire

// fieldLinesImpls returns the forms of fieldLines that TestFieldLines
// compares with fieldLinesRef: none here, where fieldLines finds no lines.
func fieldLinesImpls() map[string]func(b []byte, ls *lineSpans) int { return nil }
