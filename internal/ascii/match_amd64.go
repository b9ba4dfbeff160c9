//go:build amd64 && !purego

package ascii

// match is Match for i < len(b), with SSE2 (match_amd64.s); matchGeneric
// is the same in Go.
//
//go:noescape
func match(b []byte, i int, c byte) uint64

// match4 is Match4 for i < len(b), with SSE2 (match_amd64.s reads the
// four bytes of set as one word, set[0] lowest); match_other.go has it in
// Go.
//
//go:noescape
func match4(b []byte, i int, set *[4]byte, m *[4]uint64)

// matchPath is MatchPath for i < len(b), with SSE2; matchPathGeneric is
// the same in Go.
//
//go:noescape
func matchPath(b []byte, i int) (slash, dot, other uint64)

// plainPath is PlainPath, with SSE2; plainPathGeneric is the same in Go.
//
//go:noescape
func plainPath(b []byte) bool

// matchArgs is MatchArgs for i < len(b), with SSE2; matchArgsGeneric is
// the same in Go.
//
//go:noescape
func matchArgs(b []byte, i int) (amps, eqs, esc uint64)
