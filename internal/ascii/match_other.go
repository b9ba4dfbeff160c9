//go:build !amd64 || purego

package ascii

// match is Match for i < len(b).
func match(b []byte, i int, c byte) uint64 { return matchGeneric(b, i, c) }

// plainPath is PlainPath.
func plainPath(b []byte) bool { return plainPathGeneric(b) }

// matchArgs is MatchArgs for i < len(b).
func matchArgs(b []byte, i int) (amps, eqs, esc uint64) { return matchArgsGeneric(b, i) }
