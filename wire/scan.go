package wire

import (
	"encoding/binary"
	"math/bits"

	"github.com/brisk-http/brisk/internal/ascii"
)

// valueEndGeneric is valueEnd in Go.
func valueEndGeneric(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	for {
		i += ctlIndex(b[i:])
		if i == len(b) || b[i] != '\t' {
			return i
		}
		i++
	}
}

// ctlIndex returns the index of the first byte of s that is a CTL
// (0x00-0x1F, HTAB included) or DEL, or len(s) when there is none. It
// tests eight bytes at a time: ValueStop marks every CTL and DEL, and some
// valid bytes (0x80-0x9F, 0xFF) that are skipped one by one.
func ctlIndex(s []byte) int {
	i := 0
	for i+8 <= len(s) {
		m := ascii.ValueStop(binary.LittleEndian.Uint64(s[i : i+8 : i+8]))
		if m == 0 {
			i += 8
			continue
		}
		i += bits.TrailingZeros64(m) >> 3
		if c := s[i]; c < 0x20 || c == 0x7f {
			return i
		}
		i++
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return i
		}
	}
	return len(s)
}

// targetStopGeneric is targetStop in Go, eight bytes at a time.
func targetStopGeneric(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	for ; i+8 <= len(b); i += 8 {
		if m := ascii.TargetStop(binary.LittleEndian.Uint64(b[i : i+8 : i+8])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c <= ' ' || c >= 0x7f || c == '#' || c == '%' {
			break
		}
	}
	return i
}
