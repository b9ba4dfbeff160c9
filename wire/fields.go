package wire

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/brisk-http/brisk/internal/ascii"
)

// fieldSection parses the field lines from st.next through the empty line
// that ends the head (RFC 9112 §5), appending to fs.Fields, and returns the
// head length. minor is the message's HTTP/1.minor; request says whether
// request-only fields (Host, Expect) are interpreted.
func (p *Parser) fieldSection(b []byte, fs *FieldSection, st *scanState, minor uint8, request bool) (int, error) {
	pos := st.next
	if st.search > pos && pos < len(b) && bytes.IndexByte(b[st.search:], '\n') < 0 {
		// Still no LF in this line: check only the new bytes.
		return 0, precheck(b, st, ':', ErrFieldName)
	}
	fields := fs.Fields
	for pos < len(b) {
		if c := b[pos]; c == '\r' || c == '\n' {
			end, err := p.crlf(b, pos)
			if err == nil {
				fs.Fields, fs.Raw = fields, b[st.fieldsAt:pos]
				st.next, st.search = end, end
				return end, nil
			}
			if !needMore(err) {
				return 0, err
			}
			break
		}
		if haveFieldLines && !p.noQuickFields {
			// The lines fieldLines splits, up to the end of the head or a
			// line of another shape, split here.
			var err error
			if pos, fields, err = p.quickFields(b, pos, fields, fs, minor, request); err != nil {
				return 0, err
			}
			if pos < len(b) && (b[pos] == '\r' || b[pos] == '\n') {
				continue
			}
		}
		line := b[pos:]
		colon, v0, v1, stop, id, k := splitFieldLine(line)
		end := pos + stop + 2
		if k != 0 || line[stop] != '\r' {
			var err error
			if end, fields, err = p.otherLine(b, pos, stop, k, fields, fs, request); needMore(err) {
				// A continuation line (unfold) has no field name either.
				st.tokenDone = len(line) > 0 && ascii.IsOWS(line[0]) || bytes.IndexByte(line, ':') >= 0
				break
			} else if err != nil {
				return 0, err
			}
			if k != 0 { // an obs-fold, unfolded
				pos = end
				continue
			}
		}
		if len(fields) == cap(fields) {
			return 0, fail(ErrTooManyFields, pos)
		}
		fields = fields[:len(fields)+1]
		f := &fields[len(fields)-1]
		f.Name, f.Value = line[:colon:colon], line[v0:v1:v1]
		if id != fieldOther {
			if err := p.note(fs, id, f.Value, pos+v0, minor, request); err != nil {
				return 0, err
			}
		}
		pos = end
	}
	fs.Fields = fields
	st.next, st.search = pos, len(b)
	return 0, ErrNeedMore
}

// otherLine is fieldSection for the field line at b[pos:] that
// splitFieldLine did not find valid and ended by CRLF: k is its Kind and
// stop the offset in the line of its first bad byte, or k is zero and
// b[pos+stop] a bare LF that ends it. It unfolds an obs-fold in a response with AllowObsFold
// (unfold) and returns the offset after the continuation line, or
// accepts a bare LF with AllowBareLF and returns the offset after it;
// else it returns the error: ErrNeedMore when b ends first.
func (p *Parser) otherLine(b []byte, pos, stop int, k Kind, fields []Field, fs *FieldSection, request bool) (int, []Field, error) {
	switch {
	case k == ErrObsFold && p.AllowObsFold && !request:
		return p.unfold(b, pos, fields, fs)
	case k == ErrNeedMore:
		return 0, fields, ErrNeedMore
	case k != 0:
		return 0, fields, fail(k, pos+stop)
	case !p.AllowBareLF:
		return 0, fields, fail(ErrLineEnding, pos+stop)
	}
	return pos + stop + 1, fields, nil
}

// unfold joins the continuation line at b[pos:], which starts with SP or
// HTAB, to the field value of the line before it, the last of fields
// (Parser.AllowObsFold): it checks the line as a field value ended by its
// line ending, writes SP over the obs-fold (the previous line's ending and
// the SP and HTAB around it) and extends that value, and returns the
// offset after the line's ending; ErrNeedMore when b ends first. A first
// field line, or the continuation of a field interpreted by note, is
// ErrObsFold.
func (p *Parser) unfold(b []byte, pos int, fields []Field, fs *FieldSection) (int, []Field, error) {
	if len(fields) == 0 {
		return 0, fields, fail(ErrObsFold, pos)
	}
	prev := &fields[len(fields)-1]
	switch nameID(prev.Name) {
	case fieldConnection, fieldContentLength, fieldTransferEncoding:
		return 0, fields, fail(ErrObsFold, pos)
	}
	v0 := pos
	for v0 < len(b) && ascii.IsOWS(b[v0]) {
		v0++
	}
	stop := valueEnd(b, v0)
	end, err := p.lineEnding(b, stop)
	if err != nil {
		return 0, fields, err
	}
	v1 := stop
	for v1 > v0 && ascii.IsOWS(b[v1-1]) {
		v1--
	}
	fold := pos - 1 // the previous line's ending, CRLF or a bare LF
	if b[fold-1] == '\r' {
		fold--
	}
	start := fold // of the joined value
	for start > 0 && ascii.IsOWS(b[start-1]) {
		start--
	}
	start -= len(prev.Value) // a value ends with a byte other than OWS
	for i := fold; i < v0; i++ {
		b[i] = ' '
	}
	switch {
	case len(prev.Value) == 0:
		prev.Value = b[v0:v1:v1]
	case v1 > v0:
		prev.Value = b[start:v1:v1]
	}
	fs.ObsFold = true
	return end, fields, nil
}

// lineEnding checks that b[i], the first byte that ends a field value,
// starts a line ending (CRLF, or a bare LF with AllowBareLF) and returns
// the offset after it; ErrNeedMore when b ends first.
func (p *Parser) lineEnding(b []byte, i int) (int, error) {
	switch {
	case i == len(b):
		return 0, ErrNeedMore
	case b[i] == '\r' || b[i] == '\n':
		return p.crlf(b, i)
	}
	return 0, fail(ErrFieldValue, i)
}

// splitFieldLine splits the field line at the start of b, field-name ":"
// OWS field-value OWS (RFC 9112 §5, RFC 9110 §5.5), which must be
// followed by its line ending (CRLF or LF; the caller decides whether a
// bare LF is allowed): the name is b[:colon], the value without leading and
// trailing SP and HTAB is b[v0:v1], and b[stop] is the CR or LF that ends
// the line. On failure k is the Kind and stop the offset of the first bad
// byte, or k is ErrNeedMore when b ends before the line does:
//   - a line that starts with SP or HTAB is ErrObsFold (RFC 9112 §5.2),
//     also as the first field line (where it is not a continuation but
//     would hide a field from recipients that skip it);
//   - a name that is not a token directly followed by ":" is ErrFieldName;
//   - a CTL other than HTAB, or DEL, in the value is ErrFieldValue;
//   - a CR not followed by LF is ErrLineEnding.
//
// Both the head's field lines and a chunked body's trailer lines are
// split with it: it is the one statement of the field-line grammar, which
// the assembly fast path (fieldLines) only shortcuts for lines of the
// most common shape.
func splitFieldLine(b []byte) (colon, v0, v1, stop int, id fieldID, k Kind) {
	// The colon, searched eight bytes at a time in the first words.
	n, ctl := 0, uint64(0)
	if len(b) >= 16 {
		w0, w1 := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
		if m := ascii.Zero(w0 ^ ascii.Repeat(':')); m != 0 {
			n, ctl = bits.TrailingZeros64(m)>>3, ascii.Less(w0, ' ')&(m-1)
		} else if m := ascii.Zero(w1 ^ ascii.Repeat(':')); m != 0 {
			n, ctl = 8+bits.TrailingZeros64(m)>>3, ascii.Less(w0, ' ')|ascii.Less(w1, ' ')&(m-1)
		} else if len(b) >= 24 {
			w2 := binary.LittleEndian.Uint64(b[16:])
			if m := ascii.Zero(w2 ^ ascii.Repeat(':')); m != 0 {
				n = 16 + bits.TrailingZeros64(m)>>3
				ctl = ascii.Less(w0, ' ') | ascii.Less(w1, ' ') | ascii.Less(w2, ' ')&(m-1)
			}
		}
	}
	ok := false
	if n > 0 && ctl == 0 {
		id, ok = commonName(b, n)
	}
	if colon = n; !ok {
		if colon, id, k = fieldName(b); k != 0 {
			return 0, 0, 0, colon, 0, k
		}
	}
	i := colon + 1
	if i < len(b) && b[i] == ' ' { // the usual single SP
		i++
	}
	for i < len(b) && ascii.IsOWS(b[i]) {
		i++
	}
	v0 = i
	i = valueEnd(b, i) // one pass finds the CR and checks the bytes before it
	if i == len(b) {
		return 0, 0, 0, i, 0, ErrNeedMore
	}
	switch b[i] {
	case '\r':
		if i+1 == len(b) {
			return 0, 0, 0, i, 0, ErrNeedMore
		}
		if b[i+1] != '\n' {
			return 0, 0, 0, i, 0, ErrLineEnding
		}
	case '\n':
	default:
		return 0, 0, 0, i, 0, ErrFieldValue
	}
	v1 = i
	for v1 > v0 && ascii.IsOWS(b[v1-1]) { // rare: trailing OWS
		v1--
	}
	return colon, v0, v1, i, id, 0
}

// crlf checks the line ending at b[i], a CR or LF, and returns the offset
// after it: CRLF, or a bare LF when AllowBareLF.
func (p *Parser) crlf(b []byte, i int) (int, error) {
	if b[i] == '\n' {
		if !p.AllowBareLF {
			return 0, fail(ErrLineEnding, i)
		}
		return i + 1, nil
	}
	if i+1 == len(b) {
		return 0, ErrNeedMore
	}
	if b[i+1] != '\n' {
		return 0, fail(ErrLineEnding, i)
	}
	return i + 2, nil
}
