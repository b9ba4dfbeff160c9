package brisk

import (
	"bytes"
	"iter"
	"slices"
)

// maxIndexedArgs is how many name-value pairs an Args remembers the offsets
// of. Pairs beyond it are still found, by scanning again on each lookup.
const maxIndexedArgs = 32

// Args is a query string (RFC 3986 §3.4) or an
// application/x-www-form-urlencoded body (WHATWG URL Standard §5.1),
// parsed lazily and without allocating: "name=value" pairs separated by
// "&", where "+" means space and "%XX" is a percent-encoded byte, in names
// and values alike. Empty pairs ("&&") are skipped; a pair without "=" has
// an empty value. A "%" not followed by two hex digits is kept literally,
// as browsers do; Args never fails.
//
// A lookup of a name without "%", "&", "+" or "=" first searches for it
// with bytes.IndexByte, which settles it when no "%" or "+" comes before
// the match (the first lookup finds where the first one is). Otherwise
// lookups scan pair by pair, remembering the offsets of the pairs passed
// (up to 32), so a handler peeking at a few names costs about one pass
// over the raw bytes.
//
// Returned names and values are valid until the next Reset. They alias
// the raw bytes when they need no decoding and an internal buffer,
// reused across Resets, otherwise; they must not be modified. The zero
// value holds no pairs. An Args is not safe for concurrent use.
type Args struct {
	raw   []byte
	pairs [maxIndexedArgs]argPair // offsets of the first n pairs of raw
	n     int
	spare argPair // a pair found beyond the index or by findPlain
	plain int     // raw[:plain] holds no "%" or "+"; -1: not yet known
	buf   []byte  // decoded names and values
}

// argPair locates one pair in Args.raw: the name is raw[start:eq], the
// value raw[eq+1:end] (empty when eq == end: no "=").
type argPair struct {
	start, eq, end int
	escaped        uint8 // escapedName | escapedValue
}

// Bits of argPair.escaped: the name or the value holds "%" or "+".
const (
	escapedName uint8 = 1 << iota
	escapedValue
)

// argCursor walks the pairs of an Args in order.
type argCursor struct {
	i   int     // index of the next pair
	off int     // offset in raw where the next pair's search starts
	p   argPair // a pair beyond the index, returned by next
}

// Reset makes a hold the pairs of raw, which it aliases (not copies) and
// never modifies. raw must stay unchanged while a is in use.
func (a *Args) Reset(raw []byte) {
	a.raw, a.n, a.plain, a.buf = raw, 0, -1, a.buf[:0]
}

// Raw returns the bytes given to Reset.
func (a *Args) Raw() []byte { return a.raw }

// Peek returns the decoded value of the first pair named name, or nil when
// there is none; a pair without "=" gives an empty, non-nil value.
func (a *Args) Peek(name string) []byte {
	if p := a.find(name); p != nil {
		return a.value(p)
	}
	return nil
}

// Has reports whether a pair named name exists.
func (a *Args) Has(name string) bool { return a.find(name) != nil }

// find returns the first pair named name, or nil: it looks through the
// indexed pairs, then scans on from the last of them, indexing the pairs
// it passes while there is room. The result is valid until the next call.
func (a *Args) find(name string) *argPair {
	if p, ok := a.findPlain(name); ok {
		return p
	}
	for i := 0; i < a.n; i++ {
		p := &a.pairs[i]
		if p.eq-p.start == len(name) && p.escaped&escapedName == 0 && string(a.raw[p.start:p.eq]) == name ||
			p.escaped&escapedName != 0 && formDecodedEqual(a.raw[p.start:p.eq], name) {
			return p
		}
	}
	off := 0
	if a.n > 0 {
		off = a.pairs[a.n-1].end + 1
	}
	for a.n < len(a.pairs) {
		p := &a.pairs[a.n]
		if !scanArg(a.raw, off, p) {
			return nil
		}
		a.n++
		if a.nameIs(p, name) {
			return p
		}
		off = p.end + 1
	}
	for p := &a.spare; scanArg(a.raw, off, p); off = p.end + 1 {
		if a.nameIs(p, name) {
			return p
		}
	}
	return nil
}

// findPlain looks for a pair named name with bytes.IndexByte, which is
// much faster than reading pair by pair, when that gives the same answer:
// name is non-empty and holds no "%", "&", "+" or "=", and raw holds no
// "%" or "+" up to the match, so no pair before
// it can decode to name. ok is false when the answer is unknown: find must
// scan. A match is a pair when it starts raw or follows "&", and ends raw
// or is followed by "=" or "&".
func (a *Args) findPlain(name string) (p *argPair, ok bool) {
	if !plainArgName(name) {
		return nil, false
	}
	raw := a.raw
	if a.plain < 0 {
		a.plain = len(raw)
		if i := bytes.IndexByte(raw, '%'); i >= 0 {
			a.plain = i
		}
		if i := bytes.IndexByte(raw[:a.plain], '+'); i >= 0 {
			a.plain = i
		}
	}
	for off := 0; ; {
		i := bytes.IndexByte(raw[off:a.plain], name[0])
		if i < 0 {
			return nil, a.plain == len(raw)
		}
		start := off + i
		end := start + len(name)
		if (start == 0 || raw[start-1] == '&') && end <= len(raw) &&
			(end == len(raw) || raw[end] == '=' || raw[end] == '&') && string(raw[start:end]) == name {
			p = &a.spare
			p.start, p.eq, p.end, p.escaped = start, end, end, 0
			if end < len(raw) && raw[end] == '=' {
				p.end = len(raw)
				if j := bytes.IndexByte(raw[end+1:], '&'); j >= 0 {
					p.end = end + 1 + j
				}
				if p.end > a.plain && hasFormEscape(raw[end+1:p.end]) {
					p.escaped = escapedValue
				}
			}
			return p, true
		}
		off = start + 1
	}
}

// plainArgName reports whether name is non-empty and free of "%", "&",
// "+" and "=": a pair has that name only if its raw name is name itself.
func plainArgName(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 64 && argSpecial>>c&1 != 0 {
			return false
		}
	}
	return len(name) > 0
}

// Values returns an iterator over the decoded values of all pairs named
// name, in order.
func (a *Args) Values(name string) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		var c argCursor
		for {
			p := a.next(&c)
			if p == nil || a.nameIs(p, name) && !yield(a.value(p)) {
				return
			}
		}
	}
}

// All returns an iterator over all pairs, decoded, in order.
func (a *Args) All() iter.Seq2[[]byte, []byte] {
	return func(yield func(name, value []byte) bool) {
		var c argCursor
		for {
			p := a.next(&c)
			if p == nil || !yield(a.name(p), a.value(p)) {
				return
			}
		}
	}
}

// Len returns the number of non-empty pairs.
func (a *Args) Len() int {
	var c argCursor
	for {
		if a.next(&c) == nil {
			return c.i
		}
	}
}

// next returns the pair at cursor c, or nil after the last, and advances
// c, recording newly scanned pairs in the index while there is room. The
// result is valid until the next call.
func (a *Args) next(c *argCursor) *argPair {
	if c.i < a.n {
		p := &a.pairs[c.i]
		c.i, c.off = c.i+1, p.end+1
		return p
	}
	p := &c.p
	if c.i == a.n && a.n < len(a.pairs) {
		p = &a.pairs[a.n]
	}
	if !scanArg(a.raw, c.off, p) {
		return nil
	}
	if p != &c.p {
		a.n++
	}
	c.i, c.off = c.i+1, p.end+1
	return p
}

// argSpecial has the bits of "%", "&", "+" and "=", the bytes scanArg stops
// at; all are below 64, so one shift tests a byte.
const argSpecial = 1<<'%' | 1<<'&' | 1<<'+' | 1<<'='

// scanArg finds the first non-empty pair of raw at or after off and stores
// it in p, reporting false when there is none, in one pass over its bytes
// that also notes escapes in the name and in the value.
func scanArg(raw []byte, off int, p *argPair) bool {
	for off < len(raw) && raw[off] == '&' {
		off++
	}
	if off >= len(raw) {
		return false
	}
	p.start, p.eq, p.escaped = off, -1, 0
	i := off
	for ; i < len(raw); i++ {
		c := raw[i]
		if c >= 64 || argSpecial>>c&1 == 0 {
			continue
		}
		switch {
		case c == '&':
			goto end
		case p.eq >= 0:
			if c != '=' {
				p.escaped |= escapedValue
			}
		case c == '=':
			p.eq = i
		default:
			p.escaped |= escapedName
		}
	}
end:
	p.end = i
	if p.eq < 0 {
		p.eq = i
	}
	return true
}

// nameIs reports whether the decoded name of p is name.
func (a *Args) nameIs(p *argPair, name string) bool {
	if p.escaped&escapedName == 0 {
		return p.eq-p.start == len(name) && string(a.raw[p.start:p.eq]) == name
	}
	return formDecodedEqual(a.raw[p.start:p.eq], name)
}

// name returns the decoded name of p.
func (a *Args) name(p *argPair) []byte {
	return a.decoded(a.raw[p.start:p.eq], p.escaped&escapedName != 0)
}

// value returns the decoded value of p.
func (a *Args) value(p *argPair) []byte {
	if p.eq == p.end {
		return a.raw[p.end:p.end:p.end]
	}
	return a.decoded(a.raw[p.eq+1:p.end], p.escaped&escapedValue != 0)
}

// decoded returns raw itself when it holds no escape, else its decoded
// form appended to a.buf. The capacity of the result is capped so that a
// caller's append cannot overwrite later values.
func (a *Args) decoded(raw []byte, escaped bool) []byte {
	if !escaped {
		return raw[:len(raw):len(raw)]
	}
	start := len(a.buf)
	a.buf = AppendFormDecoded(a.buf, raw)
	return a.buf[start:len(a.buf):len(a.buf)]
}

// hasFormEscape reports whether v holds "%" or "+".
func hasFormEscape[T string | []byte](v T) bool {
	for i := 0; i < len(v); i++ {
		if v[i] == '%' || v[i] == '+' {
			return true
		}
	}
	return false
}

// AppendFormDecoded appends src decoded as a component of an
// application/x-www-form-urlencoded string (WHATWG URL Standard §5.1) to
// dst and returns the extended slice: "+" becomes a space, "%XX" the byte
// 0xXX, and a "%" not followed by two hex digits stays as it is.
func AppendFormDecoded(dst, src []byte) []byte {
	n := len(dst)
	dst = slices.Grow(dst, len(src))[:n+len(src)] // decoding never grows
	out := dst[n:]
	j := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '+' {
			c = ' '
		} else if c == '%' && i+2 < len(src) {
			// hexValue gives 0xff for a non-digit, so h|l > 15 if either is.
			if h, l := hexValue[src[i+1]], hexValue[src[i+2]]; h|l < 16 {
				c, i = h<<4|l, i+2
			}
		}
		out[j] = c
		j++
	}
	return dst[:n+j]
}

// unescapeAt decodes the "%XX" at src[i], reporting false when src[i+1]
// and src[i+2] are not two hex digits.
func unescapeAt(src []byte, i int) (byte, bool) {
	if i+2 >= len(src) {
		return 0, false
	}
	h, l := hexValue[src[i+1]], hexValue[src[i+2]]
	return h<<4 | l, h|l < 16
}

// formDecodedEqual reports whether raw, decoded as by AppendFormDecoded,
// equals name, without allocating.
func formDecodedEqual(raw []byte, name string) bool {
	j := 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch c {
		case '+':
			c = ' '
		case '%':
			if b, ok := unescapeAt(raw, i); ok {
				c = b
				i += 2
			}
		}
		if j >= len(name) || name[j] != c {
			return false
		}
		j++
	}
	return j == len(name)
}
