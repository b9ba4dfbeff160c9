package ascii

// Match returns the bitmap of the bytes equal to c among the 64 bytes of b
// from offset i on (fewer at the end of b): bit k is set when b[i+k] == c.
// Bits for offsets past the end of b are clear; an i outside b gives 0.
//
// It lets a scanner find every delimiter of a block with one call and then
// visit them with bits.TrailingZeros64, instead of testing each byte: on
// amd64 one SSE2 comparison covers sixteen bytes (match_amd64.s).
func Match(b []byte, i int, c byte) uint64 {
	if uint(i) >= uint(len(b)) {
		return 0
	}
	return match(b, i, c)
}

// MatchArgs returns the bitmaps, as Match does, of the bytes that split
// and escape a query or form body (name=value pairs joined by "&") among
// the 64 bytes of b from offset i on: "&" (amps), "=" (eqs), and "%" or
// "+" (esc), the last two ORed. On amd64 each sixteen bytes of b are
// loaded once and compared with all four bytes, where four calls of
// Match would load them four times.
func MatchArgs(b []byte, i int) (amps, eqs, esc uint64) {
	if uint(i) < uint(len(b)) {
		amps, eqs, esc = matchArgs(b, i)
	}
	return
}

// matchArgsGeneric is matchArgs one byte at a time.
func matchArgsGeneric(b []byte, i int) (amps, eqs, esc uint64) {
	return matchGeneric(b, i, '&'), matchGeneric(b, i, '='),
		matchGeneric(b, i, '%') | matchGeneric(b, i, '+')
}

// PlainPath reports whether the request path b holds none of the bytes
// a decoder must decode or refuse ("%", "\\", the control characters
// %x00-1F and DEL) and no "/" followed by "/" or ".": whether a decoder
// can take b as it is, but for its first byte. It reads all of b in one
// call (sixteen bytes at a time on amd64) and stops at the first such
// byte.
func PlainPath(b []byte) bool { return plainPath(b) }

// plainPathGeneric is plainPath one byte at a time.
func plainPathGeneric(b []byte) bool {
	for k, c := range b {
		switch {
		case c == '%' || c == '\\' || c < 0x20 || c == 0x7f:
			return false
		case (c == '/' || c == '.') && k > 0 && b[k-1] == '/':
			return false
		}
	}
	return true
}

// matchGeneric is match one byte at a time, for other architectures and
// for tests of the assembly.
func matchGeneric(b []byte, i int, c byte) uint64 {
	var m uint64
	for k := i; k < len(b) && k < i+64; k++ {
		if b[k] == c {
			m |= 1 << (k - i)
		}
	}
	return m
}
