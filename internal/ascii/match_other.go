//go:build !amd64 || purego

package ascii

// match64 returns the bitmap of Match for the 64 bytes at p.
func match64(p *[64]byte, c byte) uint64 { return match64Generic(p, c) }
