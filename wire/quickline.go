package wire

import (
	"bytes"
	"encoding/binary"

	"github.com/brisk-http/brisk/internal/ascii"
)

// quickFields parses field lines from b[pos:] while they end in CRLF
// within lineChunk bytes and 16 bytes or more are left in b. Those of the
// most common shape (a name of 1 to maxNameBytes tchars, ":", at most one
// SP, a value of field-vchars and SPs that neither starts nor ends with SP)
// it stores itself; the others (an HTAB, several SPs, a long name, a name
// that is not a token) it parses by the strict rules (fieldLine), so that
// one such line does not end the walk. It appends the fields to fields
// within its capacity, notes the interpreted ones in fs (as fieldSection
// does) and returns the offset of the first line it did not parse, for
// fieldSection: the end of the head, or a line that fieldSection parses
// or rejects. Its errors are those of fieldSection.
//
// fieldLines splits up to maxSpans lines in one call and finds their
// common names; what is left here is checking the other names and storing
// the fields.
func (p *Parser) quickFields(b []byte, pos int, fields []Field, fs *FieldSection, minor uint8, request bool) (int, []Field, error) {
	var ls lineSpans
	for len(b)-pos >= 16 {
		h := b[pos:min(len(b), pos+maxSpanInput)]
		k := fieldLines(h, &ls)
		for i := range ls[:k] {
			l := &ls[i]
			id := l.id
			if id == notCommon {
				id = tokenName(h[l.name:l.colon])
			}
			if id >= oddLine { // an odd line, or a name that is not a token
				var err error
				if _, fields, err = p.fieldLine(b, pos+int(l.name), fields, fs, minor, request); err != nil {
					return pos + int(l.name), fields, err
				}
				continue
			}
			if len(fields) >= cap(fields) {
				return pos + int(l.name), fields, nil
			}
			fields = fields[:len(fields)+1]
			f := &fields[len(fields)-1]
			f.Name, f.Value = h[l.name:l.colon:l.colon], h[l.start:l.end:l.end]
			if id != fieldOther {
				if err := p.note(fs, id, f.Value, pos+int(l.start), minor, request); err != nil {
					return pos, fields, err
				}
			}
		}
		if k == 0 {
			break
		}
		pos += int(ls[k-1].end) + 2
		if k < len(ls) {
			break // fieldLines stopped before a line
		}
	}
	return pos, fields, nil
}

// tokenName returns what the field name is (nameID), or notCommon when
// it is not a token.
func tokenName(name []byte) fieldID {
	if !ascii.IsTokenString(name) {
		return notCommon
	}
	return nameID(name)
}

// plainName reports whether the n bytes at the start of b, a name of at
// most maxNameBytes in a b of at least 32 bytes, are all letters, digits
// or '-': a token. It tests eight bytes at a time.
func plainName(b []byte, n int) bool {
	for k := 0; k < n; k += 8 {
		other := ^plainBytes(binary.LittleEndian.Uint64(b[k:k+8:k+8])) & 0x8080808080808080
		if k+8 > n {
			other &= 1<<(8*(n-k)) - 1
		}
		if other != 0 {
			return false
		}
	}
	return true
}

// plainBytes returns a word with bit 7 set in exactly the bytes of x that
// are letters, digits or '-'.
func plainBytes(x uint64) uint64 {
	const hi = 0x8080808080808080
	lower := (x | ascii.Repeat(0x20)) &^ hi // letters in lower case
	letter := atLeast(lower, 'a') &^ atLeast(lower, 'z'+1)
	digit := atLeast(x&^hi, '0') &^ atLeast(x&^hi, '9'+1)
	return (letter|digit)&^x | zeroBytes(x^ascii.Repeat('-'))
}

// zeroBytes returns a word with bit 7 set in exactly the zero bytes of x:
// adding 0x7F to the low seven bits of a byte sets its bit 7 unless they
// are zero, without a carry into the next byte.
func zeroBytes(x uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^(x&low7 + low7 | x) &^ low7
}

// atLeast returns a word with bit 7 set in exactly the bytes of x, none
// above 0x7F, that are at least k (at most 0x80): with bit 7 set first, a
// byte minus k keeps it exactly then, and never borrows from the next.
func atLeast(x uint64, k byte) uint64 {
	const hi = 0x8080808080808080
	return (x | hi - ascii.Repeat(k)) & hi
}

// lineChunk is how many bytes fieldLines marks at a time: the longest
// line it splits.
const lineChunk = 256

// maxSpanInput is the most bytes given to fieldLines in one call, so
// that a lineSpan holds their offsets. The lines it splits span at most
// maxSpans*(lineChunk+1) of them.
const maxSpanInput = 1<<16 - 1

// The lines of one call must fit in the offsets of a lineSpan.
var _ [maxSpanInput - maxSpans*(lineChunk+1)]struct{}

// maxSpans is the most lines fieldLines splits in one call.
const maxSpans = 16

// maxNameBytes is the longest field name fieldLines splits.
const maxNameBytes = 31

// lineSpan is a field line that fieldLines found, by offsets in its
// input b: the line is b[name:end] and b[end:end+2] is CRLF. When id is
// oddLine, the line has another shape and colon and start are 0; else
// the name is b[name:colon], the value b[start:end], and id what the name
// is when it is a common name (commonName), else fieldOther for another
// plain name or notCommon.
type lineSpan struct {
	name, colon, start, end uint16
	id                      fieldID
}

// notCommon is the id of a lineSpan whose name is not a common one, or
// not known to be.
const notCommon fieldID = 0xff

// oddLine is the id of a lineSpan of a line that ends in CRLF but has
// not the shape fieldLines splits (an HTAB, several SPs, no colon early):
// quickFields parses it by the strict rules, without ending the walk.
const oddLine fieldID = 0xfe

// lineSpans is where fieldLines records the lines.
type lineSpans [maxSpans]lineSpan

// fieldLinesGeneric is fieldLines in Go: from the start of b, while a
// line's first stop byte (a CTL, HTAB included, or DEL) other than HTAB
// is a CR, less than lineChunk bytes from its start and not at it,
// followed by LF. A line is odd (oddLine, only name and end set) when it
// holds an HTAB or does not have the usual shape: a colon after 1 to
// maxNameBytes bytes, and a value (after the colon and at most one SP)
// that neither starts nor ends with SP. A name is looked up by
// commonName when b holds the 8 bytes from its start; another is known
// to be of no interest when it is a plainName and b holds the 32 bytes
// from its start.
func fieldLinesGeneric(b []byte, ls *lineSpans) int {
	if len(b) < 16 {
		return 0
	}
	k, p := 0, 0
	for k < len(ls) && p < len(b) {
		lim := min(len(b), p+lineChunk)
		e, odd := p+ctlIndex(b[p:lim]), false
		for e > p && e < lim && b[e] == '\t' {
			e, odd = e+1+ctlIndex(b[e+1:lim]), true
		}
		if e == p || e == lim || e+1 >= len(b) || b[e] != '\r' || b[e+1] != '\n' {
			break
		}
		c := p + bytes.IndexByte(b[p:min(e, p+maxNameBytes+1)], ':')
		start := c + 1
		if start < e && b[start] == ' ' {
			start++
		}
		if odd || c <= p || start < e && (b[start] == ' ' || b[e-1] == ' ') {
			ls[k] = lineSpan{name: uint16(p), end: uint16(e), id: oddLine}
			k++
			p = e + 2
			continue
		}
		id := notCommon
		if len(b)-p >= 8 {
			if common, ok := commonName(b[p:], c-p); ok {
				id = common
			} else if len(b)-p >= 32 && plainName(b[p:], c-p) {
				id = fieldOther
			}
		}
		ls[k] = lineSpan{name: uint16(p), colon: uint16(c), start: uint16(start), end: uint16(e), id: id}
		k++
		p = e + 2
	}
	return k
}
