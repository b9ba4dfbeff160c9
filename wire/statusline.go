package wire

import (
	"bytes"

	"github.com/brisk-http/brisk/internal/ascii"
)

// statusLine parses the status line of h at b[h.scan.next:] and advances
// h.scan past it.
func (p *Parser) statusLine(b []byte, h *ResponseHead) error {
	st := &h.scan
	pos := st.next
	if st.search > pos && bytes.IndexByte(b[st.search:], '\n') < 0 {
		// Check only the new bytes, and the CR that may have ended the
		// previous ones: no LF followed it.
		from := st.search
		st.search = len(b)
		if err := bareCR(b, from-1); err != nil {
			return err
		}
		return ErrNeedMore
	}
	end, err := p.parseStatusLine(b, pos, h)
	if needMore(err) {
		st.search = len(b)
	}
	if err != nil {
		return err
	}
	st.next, st.search, st.fieldsAt = end, end, end
	return nil
}

// parseStatusLine parses the status line at b[pos:] (RFC 9112 §4),
// "HTTP/1.x" SP 3DIGIT SP reason-phrase CRLF, into h and returns the
// offset after it. As a common leniency, "HTTP/1.1 200" CRLF (no SP
// before the empty reason) is accepted.
func (p *Parser) parseStatusLine(b []byte, pos int, h *ResponseHead) (int, error) {
	if !p.noLookAhead && lookAheadStatus200(b, pos) {
		h.Minor, h.StatusCode, h.Reason = 1, 200, b[pos+13:pos+15]
		return pos + 17, nil
	}
	major, minor, i, err := p.version(b, pos, ErrStatusLine)
	if err != nil {
		return 0, err
	}
	if i == len(b) {
		return 0, ErrNeedMore
	}
	if b[i] != ' ' {
		return 0, at(b, i, ErrStatusLine)
	}
	code := 0
	for k := i + 1; k < i+4; k++ {
		if k == len(b) {
			return 0, ErrNeedMore
		}
		if !ascii.IsDigit(b[k]) || k == i+1 && b[k] == '0' {
			return 0, at(b, k, ErrStatusCode)
		}
		code = code*10 + int(b[k]-'0')
	}
	if code > 599 { // RFC 9110 §15: valid codes are 100..599
		return 0, fail(ErrStatusCode, i+1)
	}
	i += 4
	if i == len(b) {
		return 0, ErrNeedMore
	}
	r := i
	switch c := b[i]; {
	case c == ' ':
		r++
		i = valueEnd(b, r)
	case ascii.IsDigit(c):
		return 0, fail(ErrStatusCode, i)
	case c != '\r' && c != '\n':
		return 0, at(b, i, ErrStatusLine)
	}
	if i == len(b) {
		return 0, ErrNeedMore
	}
	if b[i] != '\r' && b[i] != '\n' {
		return 0, fail(ErrStatusLine, i)
	}
	end, err := p.crlf(b, i)
	if err != nil {
		return 0, err
	}
	if major != 1 {
		return 0, fail(ErrVersionUnsupported, pos)
	}
	h.Minor, h.StatusCode, h.Reason = minor, code, b[r:i]
	return end, nil
}
