//go:build amd64 && !purego

package ascii

// match64 returns the bitmap of Match for the 64 bytes at p, with SSE2
// (match_amd64.s); match64Generic is the same in Go.
//
//go:noescape
func match64(p *[64]byte, c byte) uint64
