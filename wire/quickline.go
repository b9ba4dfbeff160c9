package wire

import (
	"encoding/binary"
	"math/bits"

	"github.com/brisk-http/brisk/internal/ascii"
)

// quickLine parses the most common shape of field line at b[pos:] in one
// pass: a name of 1 to 23 tchars, ":", at most one SP, a value that
// neither starts nor ends with SP or HTAB, CRLF. It returns what
// splitFieldLine would, as offsets in b (end after the CRLF), or
// end == 0 when the line has another shape, is invalid or is not complete
// in b: splitFieldLine then decides, so errors are reported in one place.
func quickLine(b []byte, pos int) (colon, v0, v1, end int, id fieldID) {
	if len(b)-pos < 24 {
		return
	}
	w := b[pos : pos+24 : pos+24]
	w0, w1 := binary.LittleEndian.Uint64(w), binary.LittleEndian.Uint64(w[8:])
	n := 0
	if m := ascii.Zero(w0 ^ ascii.Repeat(':')); m != 0 {
		n = bits.TrailingZeros64(m) >> 3
	} else if m := ascii.Zero(w1 ^ ascii.Repeat(':')); m != 0 {
		n = 8 + bits.TrailingZeros64(m)>>3
	} else if m := ascii.Zero(binary.LittleEndian.Uint64(w[16:]) ^ ascii.Repeat(':')); m != 0 {
		n = 16 + bits.TrailingZeros64(m)>>3
	}
	if n == 0 {
		return
	}
	// The name: a common one by its words (bit 0x20 set in every byte maps
	// the two cases of a letter to the lower one, and only CTLs besides),
	// else tchars checked one by one.
	const fold = 0x2020202020202020
	first, mid, last := (w0|fold)&nameMask(n), uint64(0), uint64(0)
	switch {
	case n > 16:
		mid, last = w1|fold, binary.LittleEndian.Uint64(w[n-8:])|fold
	case n > 8:
		last = binary.LittleEndian.Uint64(w[n-8:]) | fold
		mid = last
	default:
		mid, last = first, first
	}
	ctl := ascii.Less(w0, ' ') | ascii.Less(w1, ' ')
	if n > 16 {
		ctl |= ascii.Less(binary.LittleEndian.Uint64(w[16:]), ' ')
	}
	if c := &knownNames[nameSlot(first, last)]; first == c.first && mid == c.mid && last == c.last && n == int(c.n) && ctl&(1<<(8*n)-1) == 0 {
		id = c.id
	} else {
		tok := ascii.Token
		for _, c := range w[:n] {
			tok &= ascii.Class[c]
		}
		if tok == 0 {
			return
		}
		id = nameID(w[:n])
	}
	i := pos + n + 1
	if i < len(b) && b[i] == ' ' {
		i++
	}
	if i >= len(b) || b[i] == ' ' || b[i] == '\t' {
		return 0, 0, 0, 0, 0
	}
	start := i
	i = valueEnd(b, i)
	if i+1 >= len(b) || b[i] != '\r' || b[i+1] != '\n' {
		return 0, 0, 0, 0, 0
	}
	if i > start && (b[i-1] == ' ' || b[i-1] == '\t') {
		return 0, 0, 0, 0, 0
	}
	return pos + n, start, i, i + 2, id
}
