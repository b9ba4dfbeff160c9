package ascii

// Match returns the bitmap of the bytes equal to c among the 64 bytes of b
// from offset i on (fewer at the end of b): bit k is set when b[i+k] == c.
// Bits for offsets past the end of b are clear. i must be within b
// (0 <= i <= len(b)).
//
// It lets a scanner find every delimiter of a block with one call and then
// visit them with bits.TrailingZeros64, instead of testing each byte: on
// amd64 one SSE2 comparison covers sixteen bytes (match_amd64.s). A block
// that would run past the end of b is read as the 64 bytes that end at
// len(b), or from a zero-padded copy when b is shorter than that, so no
// byte outside b is read.
func Match(b []byte, i int, c byte) uint64 {
	n := len(b) - i
	switch {
	case n >= 64:
		return match64((*[64]byte)(b[i:]), c)
	case n <= 0:
		return 0
	case len(b) >= 64: // the block that ends at len(b), shifted down to i
		return match64((*[64]byte)(b[len(b)-64:]), c) >> (64 - n)
	}
	var pad [64]byte
	copy(pad[:], b[i:])
	return match64(&pad, c) & (1<<n - 1)
}

// match64Generic is match64 one byte at a time, for other architectures
// and for tests of the assembly.
func match64Generic(p *[64]byte, c byte) uint64 {
	var m uint64
	for k, x := range p {
		if x == c {
			m |= 1 << k
		}
	}
	return m
}
