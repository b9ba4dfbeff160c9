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

// Match4 sets m[j], for each j < 4, to the bitmap of the bytes equal to
// set[j] among the 64 bytes of b from offset i on, as Match does for one
// byte: each sixteen bytes are loaded once and compared with the four.
func Match4(b []byte, i int, set [4]byte, m *[4]uint64) {
	if uint(i) >= uint(len(b)) {
		*m = [4]uint64{}
		return
	}
	match4(b, i, &set, m)
}

// MatchArgs returns the bitmaps, as Match does, of the bytes that split
// and escape a query or form body (name=value pairs joined by "&") among
// the 64 bytes of b from offset i on: "&" (amps), "=" (eqs), and "%" or
// "+" (esc). It is Match4 with '&', '=', '%' and '+', the last two ORed,
// in fewer instructions.
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

// MatchPath returns the bitmaps, as Match does, of the bytes of a
// request path that a decoder must look at among the 64 bytes of b from
// offset i on: "/" (slash), "." (dot) and the bytes to decode or refuse
// (other): "%", "\\", the control characters %x00-1F and DEL.
func MatchPath(b []byte, i int) (slash, dot, other uint64) {
	if uint(i) < uint(len(b)) {
		slash, dot, other = matchPath(b, i)
	}
	return
}

// PlainPath reports whether the request path b holds none of the bytes
// that MatchPath puts in other ("%", "\\", the control characters
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

// matchPathGeneric is matchPath one byte at a time.
func matchPathGeneric(b []byte, i int) (slash, dot, other uint64) {
	for k := i; k < len(b) && k < i+64; k++ {
		switch c := b[k]; {
		case c == '/':
			slash |= 1 << (k - i)
		case c == '.':
			dot |= 1 << (k - i)
		case c == '%' || c == '\\' || c < 0x20 || c == 0x7f:
			other |= 1 << (k - i)
		}
	}
	return slash, dot, other
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
