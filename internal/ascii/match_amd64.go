//go:build amd64 && !purego

package ascii

// match is Match for i < len(b), with SSE2 (match_amd64.s); matchGeneric
// is the same in Go.
//
//go:noescape
func match(b []byte, i int, c byte) uint64

// plainPath is PlainPath, with SSE2; plainPathGeneric is the same in Go.
//
//go:noescape
func plainPath(b []byte) bool

// matchArgs is MatchArgs for i < len(b), with SSE2; matchArgsGeneric is
// the same in Go.
//
//go:noescape
func matchArgs(b []byte, i int) (amps, eqs, esc uint64)
