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
	for pos := st.next; ; {
		if pos == len(b) {
			return 0, ErrNeedMore
		}
		if st.search > pos && bytes.IndexByte(b[st.search:], '\n') < 0 {
			// Still no LF in this line: check only the new bytes.
			from := st.search
			st.search = len(b)
			if from < len(b) && b[from-1] == '\r' {
				return 0, fail(ErrLineEnding, from-1)
			}
			return 0, precheckFieldLine(b, from, st)
		}
		if c := b[pos]; c == '\r' || c == '\n' {
			end, err := p.crlf(b, pos)
			if err != nil {
				return 0, err
			}
			fs.Raw = b[st.fieldsAt:pos]
			st.next, st.search = end, end
			return end, nil
		}
		end, err := p.fieldLine(b, pos, fs, minor, request)
		if err != nil {
			if err == ErrNeedMore {
				st.search = len(b)
				st.tokenDone = bytes.IndexByte(b[pos:], ':') >= 0
			}
			return 0, err
		}
		pos = end
		st.next, st.search = end, end
		st.lines++
	}
}

// precheckFieldLine checks the bytes of a partial field line that arrived
// since the last call (from st.search): name bytes while the name lasts,
// and bare CRs. The whole line is parsed when its LF comes.
func precheckFieldLine(b []byte, from int, st *scanState) error {
	i := from
	for ; !st.tokenDone && i < len(b); i++ {
		if c := b[i]; c == ':' {
			st.tokenDone = true
		} else if !ascii.IsToken(c) {
			return at(b, i, ErrFieldName)
		}
	}
	if err := bareCR(b, i); err != nil {
		return err
	}
	return ErrNeedMore
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

// fieldLine parses the field line at b[pos:], field-name ":" OWS
// field-value OWS (RFC 9112 §5), appends it to fs.Fields, records what it
// says about framing, and returns the offset after its line ending.
//
// A line that starts with SP or HTAB is ErrObsFold (RFC 9112 §5.2), also
// when it is the first field line (where it is not a continuation but
// would hide a field from recipients that skip it).
func (p *Parser) fieldLine(b []byte, pos int, fs *FieldSection, minor uint8, request bool) (int, error) {
	if c := b[pos]; c == ' ' || c == '\t' {
		return 0, fail(ErrObsFold, pos)
	}
	i := pos
	for i+8 <= len(b) {
		w := b[i : i+8 : i+8]
		if ascii.Class[w[0]]&ascii.Class[w[1]]&ascii.Class[w[2]]&ascii.Class[w[3]]&
			ascii.Class[w[4]]&ascii.Class[w[5]]&ascii.Class[w[6]]&ascii.Class[w[7]]&ascii.Token == 0 {
			break
		}
		i += 8
	}
	for i < len(b) && ascii.Class[b[i]]&ascii.Token != 0 {
		i++
	}
	if i == len(b) {
		return 0, ErrNeedMore
	}
	if b[i] != ':' || i == pos {
		return 0, at(b, i, ErrFieldName)
	}
	name := b[pos:i]
	i++
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	v := i
	i = valueEnd(b, i)
	if i == len(b) {
		return 0, ErrNeedMore
	}
	if c := b[i]; c != '\r' && c != '\n' {
		return 0, fail(ErrFieldValue, i)
	}
	end, err := p.crlf(b, i)
	if err != nil {
		return 0, err
	}
	for i > v && (b[i-1] == ' ' || b[i-1] == '\t') {
		i--
	}
	if len(fs.Fields) == cap(fs.Fields) {
		return 0, fail(ErrTooManyFields, pos)
	}
	fs.Fields = append(fs.Fields, Field{Name: name, Value: b[v:i]})
	switch len(name) {
	case 4, 6, 10, 14, 17: // the lengths note looks at
		if err := p.note(fs, name, b[v:i], v, minor, request); err != nil {
			return 0, err
		}
	}
	return end, nil
}

// valueEnd returns the offset of the first byte at or after b[i] that
// cannot be part of a field value (RFC 9110 §5.5): a CTL other than HTAB
// (this includes CR and LF) or DEL; or len(b). It tests eight bytes at a
// time.
func valueEnd(b []byte, i int) int {
	for i+16 <= len(b) {
		w := b[i : i+16 : i+16]
		m := ascii.FieldValueStop(binary.LittleEndian.Uint64(w)) | ascii.FieldValueStop(binary.LittleEndian.Uint64(w[8:]))
		if m != 0 {
			break
		}
		i += 16
	}
	for i+8 <= len(b) {
		m := ascii.FieldValueStop(binary.LittleEndian.Uint64(b[i:]))
		if m == 0 {
			i += 8
			continue
		}
		i += bits.TrailingZeros64(m) >> 3
		if b[i] != '\t' {
			return i
		}
		i++
	}
	for ; i < len(b); i++ {
		if c := b[i]; c < ' ' && c != '\t' || c == 0x7f {
			return i
		}
	}
	return i
}
