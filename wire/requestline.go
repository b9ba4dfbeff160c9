package wire

import (
	"bytes"
	"encoding/binary"

	"github.com/brisk-http/brisk/internal/ascii"
)

// requestLine parses the request line of h at b[h.scan.next:], skipping up
// to maxEmptyLines empty lines before it, and advances h.scan past it.
// maxLine is the limit on the line without its CRLF, -1 for none. When a
// part of the line was scanned before, the new bytes are checked first,
// by precheck.
func (p *Parser) requestLine(b []byte, h *RequestHead, maxLine int) error {
	st := &h.scan
	pos := st.next
	if pos == len(b) || b[pos] == '\r' || b[pos] == '\n' {
		var err error
		if pos, err = p.skipEmptyLines(b, st); err != nil {
			return err
		}
	}
	if maxLine >= 0 && len(b)-pos > maxLine+2 {
		b = b[:pos+maxLine+2] // the line's end, if any, is in here
	}
	if st.search > pos && bytes.IndexByte(b[st.search:], '\n') < 0 {
		if err := precheck(b, st, ' ', ErrMethod); !needMore(err) {
			return err
		}
		return lineTooLong(b, pos, maxLine)
	}
	end, err := p.parseRequestLine(b, pos, h)
	if needMore(err) {
		st.search = len(b)
		st.tokenDone = h.Method != nil
		return lineTooLong(b, pos, maxLine)
	}
	if err != nil {
		return err
	}
	if maxLine >= 0 && end-pos > maxLine+1 { // else short enough with its CR
		n := end - pos - 1 // without the LF
		if b[end-2] == '\r' {
			n--
		}
		if n > maxLine {
			return fail(ErrRequestLineTooLong, pos+maxLine)
		}
	}
	st.next, st.search, st.fieldsAt = end, end, end
	return nil
}

// skipEmptyLines skips the empty lines before a request line (RFC 9112
// §2.2) and returns the offset where the request line starts.
func (p *Parser) skipEmptyLines(b []byte, st *scanState) (int, error) {
	pos := st.next
	for pos < len(b) {
		n := 1
		switch b[pos] {
		case '\r':
			if pos+1 == len(b) {
				return pos, ErrNeedMore
			}
			if b[pos+1] != '\n' {
				return pos, fail(ErrLineEnding, pos)
			}
			n = 2
		case '\n':
			if !p.AllowBareLF {
				return pos, fail(ErrLineEnding, pos)
			}
		default:
			return pos, nil
		}
		if st.empty == maxEmptyLines {
			return pos, fail(ErrRequestLine, pos)
		}
		st.empty++
		pos += n
		st.next, st.search = pos, pos
	}
	if pos == len(b) {
		return pos, ErrNeedMore
	}
	return pos, nil
}

// lineTooLong returns ErrRequestLineTooLong when the partial request line
// b[pos:] is already longer than maxLine bytes (not counting a final CR),
// else ErrNeedMore.
func lineTooLong(b []byte, pos, maxLine int) error {
	n := len(b) - pos
	if maxLine >= 0 && (n > maxLine+1 || n == maxLine+1 && b[len(b)-1] != '\r') {
		return fail(ErrRequestLineTooLong, pos+maxLine)
	}
	return ErrNeedMore
}

// precheck checks the bytes of a partial line that arrived since the
// last call (from st.search, no LF among them) and records them as
// scanned: a CR that ended the earlier bytes, the token that starts the
// line (a method or field name, ended by sep; another byte is of kind k)
// while it lasts, and bare CRs. It returns ErrNeedMore when they are
// valid; the whole line is parsed when its LF comes.
func precheck(b []byte, st *scanState, sep byte, k Kind) error {
	i := st.search
	st.search = len(b)
	if i < len(b) && b[i-1] == '\r' {
		return fail(ErrLineEnding, i-1) // no LF followed it
	}
	for ; !st.tokenDone && i < len(b); i++ {
		if c := b[i]; c == sep {
			st.tokenDone = true
		} else if !ascii.IsToken(c) {
			return at(b, i, k)
		}
	}
	if err := bareCR(b, i); err != nil {
		return err
	}
	return ErrNeedMore
}

// bareCR returns ErrLineEnding for a CR in b[from:len(b)-1]: in a partial
// line no LF follows it. A CR in the last byte may still be followed by LF.
func bareCR(b []byte, from int) error {
	if from >= len(b)-1 {
		return nil
	}
	if i := bytes.IndexByte(b[from:len(b)-1], '\r'); i >= 0 {
		return fail(ErrLineEnding, from+i)
	}
	return nil
}

// at returns the error for the unexpected byte b[i], which a caller would
// report as kind k: a CR is ErrLineEnding unless LF follows it (then the
// line ended early: k), or ErrNeedMore when it is the last byte of b.
func at(b []byte, i int, k Kind) error {
	if k = kindAt(b, i, k); k == ErrNeedMore {
		return ErrNeedMore
	}
	return fail(k, i)
}

// kindAt is at returning the Kind.
func kindAt(b []byte, i int, k Kind) Kind {
	if b[i] == '\r' {
		if i+1 == len(b) {
			return ErrNeedMore
		}
		if b[i+1] != '\n' {
			return ErrLineEnding
		}
	}
	return k
}

// parseRequestLine parses the request line at b[pos:] (RFC 9112 §3) into h
// and returns the offset after its line ending. Left to right, it reports
// the first byte that proves the line invalid, or ErrNeedMore.
func (p *Parser) parseRequestLine(b []byte, pos int, h *RequestHead) (int, error) {
	if !p.noLookAhead && lookAheadGETRoot(b, pos) {
		h.Method, h.Target, h.Form, h.Minor = b[pos:pos+3], b[pos+4:pos+5], OriginForm, 1
		return pos + 16, nil
	}
	i := pos
	if !p.noLookAhead {
		i += lookAheadMethod(b, pos)
	}
	if i == pos {
		i += ascii.Run(b[i:], ascii.Token)
		if i == len(b) {
			return 0, ErrNeedMore
		}
		if b[i] != ' ' || i == pos {
			return 0, at(b, i, ErrMethod)
		}
	}
	h.Method = b[pos:i]
	i++
	t := i
	i = targetEnd(b, i)
	if i == len(b) {
		return 0, ErrNeedMore
	}
	if b[i] != ' ' || i == t {
		k := ErrTarget
		if b[i] == ' ' || b[i] == '\r' || b[i] == '\n' {
			k = ErrRequestLine // empty target, or no version
		}
		return 0, at(b, i, k)
	}
	h.Target = b[t:i]
	if !p.noLookAhead && b[t] == '/' && http11CRLF(b[i:]) && string(h.Method) != "CONNECT" {
		h.Form, h.Minor = OriginForm, 1 // the usual origin-form HTTP/1.1 line
		return i + 11, nil
	}
	form, ok := targetForm(h.Method, h.Target)
	if !ok {
		return 0, fail(ErrTarget, t)
	}
	h.Form = form
	major, minor, end, err := p.version(b, i+1, ErrVersion)
	if err != nil {
		return 0, err
	}
	if end, err = p.lineEnd(b, end); err != nil {
		return 0, err
	}
	if major != 1 {
		return 0, fail(ErrVersionUnsupported, i+1)
	}
	h.Minor = minor
	return end, nil
}

// http11CRLF reports whether w starts with " HTTP/1.1" CRLF, the end of
// the usual request line, by two word compares.
func http11CRLF(w []byte) bool {
	return len(w) >= 11 && w[0] == ' ' &&
		binary.LittleEndian.Uint64(w[1:9]) == wordHTTP11 && binary.LittleEndian.Uint16(w[9:11]) == wordCRLF
}

// targetEnd returns the offset of the first byte at or after b[i] that
// cannot be part of a request-target (SP, CTL, DEL, '#', non-ASCII, a '%'
// before the query not followed by two hex digits), or len(b) when b ends
// first. In the query a '%' without two hex digits is a literal byte, as
// browsers send it ("?d=100%") and as the WHATWG URL standard keeps it.
// targetStop finds the candidates sixteen or eight bytes at a time; the
// common target without pct-encoding takes one call, inlined.
func targetEnd(b []byte, t int) int {
	i := targetStop(b, t)
	if i < len(b) && b[i] == '%' {
		return pctTargetEnd(b, t, i)
	}
	return i
}

// pctTargetEnd is targetEnd from a '%' at b[i] in the target that starts
// at b[t]. It looks for the '?' only at the first bad '%', so the scan
// stays linear.
func pctTargetEnd(b []byte, t, i int) int {
	query := false
	for {
		if i+2 >= len(b) {
			return len(b) // need the two digits
		}
		next := i + 3
		if ascii.Class[b[i+1]]&ascii.Class[b[i+2]]&ascii.Hex == 0 {
			if query = query || bytes.IndexByte(b[t:i], '?') >= 0; !query {
				return i // in the path
			}
			next = i + 1 // a literal '%' in the query
		}
		if i = targetStop(b, next); i == len(b) || b[i] != '%' {
			return i
		}
	}
}

// version parses HTTP-version (RFC 9112 §2.3), "HTTP/" DIGIT "." DIGIT, at
// b[i:] and returns the digits and the offset after it. A byte that does
// not fit is an error of kind k.
func (p *Parser) version(b []byte, i int, k Kind) (major, minor byte, end int, err error) {
	if len(b)-i >= 8 && binary.LittleEndian.Uint64(b[i:]) == wordHTTP11 {
		return 1, 1, i + 8, nil
	}
	const pattern = "HTTP/0.0"
	for n := 0; n < len(pattern); n++ {
		if i+n == len(b) {
			return 0, 0, 0, ErrNeedMore
		}
		c := b[i+n]
		if ok := c == pattern[n] || pattern[n] == '0' && ascii.IsDigit(c); !ok {
			return 0, 0, 0, at(b, i+n, k)
		}
	}
	return b[i+5] - '0', b[i+7] - '0', i + 8, nil
}

// lineEnd checks that a line ends at b[i] with CRLF (or LF when allowed)
// and returns the offset after it. Any other byte is ErrVersion when it is
// a digit (a version with more digits) or ErrRequestLine.
func (p *Parser) lineEnd(b []byte, i int) (int, error) {
	switch {
	case i == len(b):
		return 0, ErrNeedMore
	case b[i] == '\r' || b[i] == '\n':
		return p.crlf(b, i)
	case ascii.IsDigit(b[i]):
		return 0, fail(ErrVersion, i)
	}
	return 0, fail(ErrRequestLine, i)
}
