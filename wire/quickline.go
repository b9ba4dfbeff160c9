package wire

import (
	"encoding/binary"
	"math/bits"

	"github.com/brisk-http/brisk/internal/ascii"
)

// quickFields parses field lines from b[pos:] while they have the most
// common shape: a name of 1 to 31 tchars, ":", at most one SP, a value
// that neither starts nor ends with SP or HTAB, CRLF. It appends them to
// fields within its capacity, notes the interpreted ones in fs (as
// fieldSection does) and returns the offset of the first line it did not
// parse, for fieldSection: the end of the head, or a line that
// splitFieldLine parses or rejects, so errors are reported in one place.
// One loop with few live variables keeps the common line cheap.
func (p *Parser) quickFields(b []byte, pos int, fields []Field, fs *FieldSection, minor uint8, request bool) (int, []Field, error) {
	for {
		id := fieldOther
		if len(b)-pos < 24 {
			return pos, fields, nil
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
		} else if len(b)-pos >= 32 {
			if m := ascii.Zero(binary.LittleEndian.Uint64(b[pos+24:pos+32]) ^ ascii.Repeat(':')); m != 0 {
				n = 24 + bits.TrailingZeros64(m)>>3
			}
		}
		if n == 0 {
			return pos, fields, nil
		}
		// The name: a common one by its words (bit 0x20 set in every byte maps
		// the two cases of a letter to the lower one, and only CTLs besides),
		// else tchars checked one by one.
		var first, mid, last uint64 // no common name is 8*maxNameWords bytes or longer
		if n < 8*maxNameWords {
			first, mid, last = nameWords(w, n)
		}
		// A CR in the name folds to '-', an HTAB to ')': the scan for the
		// line's end, from its first byte, rules them out.
		if c := &knownNames[nameSlot(first, last)]; first == c.first && mid == c.mid && last == c.last && n == int(c.n) {
			id = c.id
		} else {
			tok := ascii.Token
			name := b[pos : pos+n]
			for _, c := range name {
				tok &= ascii.Class[c]
			}
			if tok == 0 {
				return pos, fields, nil
			}
			id = nameID(name)
		}
		i := pos + n + 1
		if i < len(b) && b[i] == ' ' {
			i++
		}
		if i >= len(b) || isOWS(b[i]) {
			return pos, fields, nil
		}
		start := i
		i = valueEnd(b, pos) // from the name on: no CTL but HTAB in the line
		if i < start || i+1 >= len(b) || b[i] != '\r' || b[i+1] != '\n' {
			return pos, fields, nil
		}
		if i > start && isOWS(b[i-1]) {
			return pos, fields, nil
		}
		if len(fields) == cap(fields) {
			return pos, fields, nil
		}
		fields = fields[:len(fields)+1]
		f := &fields[len(fields)-1]
		f.Name, f.Value = b[pos:pos+n], b[start:i]
		if id != fieldOther {
			if err := p.note(fs, id, b[start:i], start, minor, request); err != nil {
				return pos, fields, err
			}
		}
		pos = i + 2
	}
}
