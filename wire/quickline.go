package wire

import (
	"github.com/brisk-http/brisk/internal/ascii"
)

// quickFields stores the field lines from b[pos:] that fieldLines split
// (those of the most common shape: a name of 1 to maxNameBytes tchars,
// ":", at most one SP, a value of field-vchars and SPs that neither starts
// nor ends with SP, CRLF) while 16 bytes or more are left in b, as
// fieldSection would: it appends them to fields within their capacity and
// notes the interpreted ones in fs. It returns the offset of the first
// line it did not store, which fieldSection parses by splitFieldLine (the
// end of the head, a line of another shape or one past the capacity of
// fields), or an error of note.
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
			if id >= oddLine || len(fields) >= cap(fields) {
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
// quickFields leaves it to splitFieldLine.
const oddLine fieldID = 0xfe

// lineSpans is where fieldLines records the lines.
type lineSpans [maxSpans]lineSpan
