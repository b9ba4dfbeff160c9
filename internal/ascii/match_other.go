//go:build !amd64 || purego

package ascii

// match is Match for i < len(b).
func match(b []byte, i int, c byte) uint64 { return matchGeneric(b, i, c) }

// match4 is Match4 for i < len(b), one byte at a time.
func match4(b []byte, i int, set *[4]byte, m *[4]uint64) {
	for j, c := range set {
		m[j] = matchGeneric(b, i, c)
	}
}

// matchPath is MatchPath for i < len(b).
func matchPath(b []byte, i int) (slash, dot, other uint64) { return matchPathGeneric(b, i) }

// plainPath is PlainPath.
func plainPath(b []byte) bool { return plainPathGeneric(b) }

// matchArgs is MatchArgs for i < len(b).
func matchArgs(b []byte, i int) (amps, eqs, esc uint64) { return matchArgsGeneric(b, i) }
