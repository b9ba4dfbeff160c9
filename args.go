package brisk

import (
	"bytes"
	"iter"
	"math/bits"
	"slices"

	"github.com/brisk-http/brisk/internal/ascii"
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
// Reset does no work. The first lookup (Peek, Has) finds where the first
// 32 pairs start and end, from the bitmap of the "&" of 64 bytes at a
// time, and where the first "%" or "+" is: names and values before it are
// used as they are (a name is compared without looking for its "="), a
// name is compared only with the pairs that start with its first byte (or
// an escape), and only the values returned are decoded. Pairs beyond the
// 32nd are scanned again on each lookup that reaches them. Iterations
// (All, Values) go through the raw bytes once, in order, splitting each
// pair from the bitmaps of "&", "=", "%" and "+" of the 64 bytes it
// starts in, and decode only the names and values that hold an escape.
//
// Returned names and values are valid until the next Reset. They alias
// the raw bytes when they need no decoding and an internal buffer,
// reused across Resets, otherwise; they must not be modified. The zero
// value holds no pairs. An Args is not safe for concurrent use.
type Args struct {
	raw   []byte
	pairs [maxIndexedArgs]argPair // the first n pairs of raw
	n     int
	rest  int        // raw[rest:] holds the pairs after pairs[:n]; -1: not indexed yet
	plain int        // raw[:plain] holds no "%" or "+"; plain <= rest
	spare [1]argPair // a pair found beyond the index
	buf   []byte     // decoded names and values
}

// argPair locates one non-empty pair in Args.raw, raw[start:end]: the name
// is raw[start:eq], the value raw[eq+1:end] (empty when eq == end: no
// "="). eq is -1 until the pair's first "=" has been looked for. first is
// raw[start], which a lookup compares before anything else.
type argPair struct {
	start, eq, end int
	first          byte
}

// Reset makes a hold the pairs of raw, which it aliases (not copies) and
// never modifies. raw must stay unchanged while a is in use.
func (a *Args) Reset(raw []byte) {
	a.raw, a.n, a.rest, a.buf = raw, 0, -1, a.buf[:0]
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

// index locates the first pairs of raw and the first escape among them,
// once per Reset.
func (a *Args) index() {
	if a.rest < 0 {
		a.build()
	}
}

// build does the work of index.
func (a *Args) build() {
	a.n, a.rest = splitPairs(a.raw, 0, a.pairs[:])
	a.plain = a.rest
	if i := bytes.IndexByte(a.raw[:a.plain], '%'); i >= 0 {
		a.plain = i
	}
	if i := bytes.IndexByte(a.raw[:a.plain], '+'); i >= 0 {
		a.plain = i
	}
}

// find returns the first pair named name, or nil: it looks through the
// indexed pairs, then scans on past them. The result is valid until the
// next call.
func (a *Args) find(name string) *argPair {
	a.index()
	c := byte('=') // the first byte of a pair whose name is empty
	if len(name) > 0 {
		c = name[0]
	}
	for i := range a.pairs[:a.n] {
		p := &a.pairs[i]
		if f := p.first; f != c && f != '%' && f != '+' { // an escape may decode to c
			continue
		}
		if p.end <= a.plain && plainArgName(name) {
			if a.plainNameIs(p, name) {
				return p
			}
		} else if a.nameIs(p, name) {
			return p
		}
	}
	for off := a.rest; off < len(a.raw); {
		var n int
		if n, off = splitPairs(a.raw, off, a.spare[:]); n == 0 {
			break
		}
		if p := &a.spare[0]; a.nameIs(p, name) {
			return p
		}
	}
	return nil
}

// plainNameIs reports whether p, a pair without escapes, is named name, a
// plainArgName, without looking for the pair's "=": the pair must start
// with name followed by "=" or by its end. It sets p.eq when it is.
func (a *Args) plainNameIs(p *argPair, name string) bool {
	e := p.start + len(name)
	if e > p.end || e < p.end && a.raw[e] != '=' || string(a.raw[p.start:e]) != name {
		return false
	}
	p.eq = e
	return true
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

// argSpecial has the bits of "%", "&", "+" and "=", the bytes with a
// meaning in args; all are below 64, so one shift tests a byte.
const argSpecial uint64 = 1<<'%' | 1<<'&' | 1<<'+' | 1<<'='

// Values returns an iterator over the decoded values of all pairs named
// name, in order.
func (a *Args) Values(name string) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		var ps pairScanner
		for i := 0; i < len(a.raw); {
			start := i
			eq, end, esc := ps.next(a.raw, i)
			i = end + 1
			if end == start || !a.partIs(start, eq, esc&escName != 0, name) {
				continue
			}
			if !yield(a.part(min(eq+1, end), end, esc&escValue != 0)) {
				return
			}
		}
	}
}

// All returns an iterator over all pairs, decoded, in order. It reads the
// raw bytes once, in order, without the index that lookups build.
func (a *Args) All() iter.Seq2[[]byte, []byte] {
	return func(yield func(name, value []byte) bool) {
		var ps pairScanner
		for i := 0; i < len(a.raw); {
			start := i
			eq, end, esc := ps.next(a.raw, i)
			i = end + 1
			if end == start {
				continue
			}
			if !yield(a.part(start, eq, esc&escName != 0), a.part(min(eq+1, end), end, esc&escValue != 0)) {
				return
			}
		}
	}
}

// Len returns the number of non-empty pairs.
func (a *Args) Len() int {
	n := 0
	for i := 0; i < len(a.raw); {
		end := len(a.raw)
		if j := bytes.IndexByte(a.raw[i:], '&'); j >= 0 {
			end = i + j
		}
		if end > i {
			n++
		}
		i = end + 1
	}
	return n
}

// Where scanPair found escapes.
const (
	escName  = 1 << iota // the name holds "%" or "+"
	escValue             // the value holds "%" or "+"
)

// scanPair reads the pair that starts at raw[i], one byte at a time: it
// returns the offsets of its first "=" (end when there is none) and of its
// end (the "&" after it, or len(raw)), and which of its name and value
// hold an escape (escName, escValue).
func scanPair(raw []byte, i int) (eq, end int, esc uint8) {
	eq, part := -1, uint8(escName)
	for ; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c >= 64 || argSpecial>>c&1 == 0:
		case c == '&':
			if eq < 0 {
				eq = i
			}
			return eq, i, esc
		case c == '=':
			if eq < 0 {
				eq, part = i, escValue
			}
		default: // "%" or "+"
			esc |= part
		}
	}
	if eq < 0 {
		eq = len(raw)
	}
	return eq, len(raw), esc
}

// pairScanner reads the pairs of raw in order, for the iterations. It
// holds the bitmaps of the "&", "=" and escapes ("%", "+") of a block of
// 64 bytes (ascii.Match4), so that a pair that ends within the block is
// split by a few operations on them; a pair that runs past the block is
// read one byte at a time. The zero value is ready to use.
type pairScanner struct {
	base, end      int // the block: raw[base:end]
	amps, eqs, esc uint64
}

// next returns the pair that starts at raw[i] as scanPair does: the
// offsets of its first "=" (end when there is none) and of its end, and
// which of its name and value hold an escape.
func (s *pairScanner) next(raw []byte, i int) (eq, end int, esc uint8) {
	if i >= s.end { // the iterations go forward: i is never before the block
		var m [4]uint64
		ascii.Match4(raw, i, [4]byte{'&', '=', '%', '+'}, &m)
		s.base, s.end = i, i+64
		s.amps, s.eqs, s.esc = m[0], m[1], m[2]|m[3]
	}
	k := uint(i-s.base) & 63
	var n uint // the pair's length
	switch amps := s.amps >> k; {
	case amps != 0:
		n = uint(bits.TrailingZeros64(amps))
	case s.end >= len(raw):
		n = uint(len(raw) - i)
	default:
		return scanPair(raw, i)
	}
	in := lowBits(n) // the pair's bits, shifted down to bit 0
	e := n           // the "=", or the end
	if w := s.eqs >> k & in; w != 0 {
		e = uint(bits.TrailingZeros64(w))
	}
	if x := s.esc >> k & in; x != 0 {
		if x&lowBits(e) != 0 {
			esc |= escName
		}
		if x>>e != 0 {
			esc |= escValue
		}
	}
	return i + int(e), i + int(n), esc
}

// lowBits returns a word with its n lowest bits set; n <= 64.
func lowBits(n uint) uint64 { return 1<<n - 1 }

// part returns raw[s:e], decoded when esc (it holds an escape), with its
// capacity capped so that a caller's append cannot overwrite later values.
func (a *Args) part(s, e int, esc bool) []byte {
	if !esc {
		return a.raw[s:e:e]
	}
	return a.decode(s, e)
}

// decode returns raw[s:e] decoded into a's buffer (see part).
func (a *Args) decode(s, e int) []byte {
	n := len(a.buf)
	a.buf = AppendFormDecoded(a.buf, a.raw[s:e])
	return a.buf[n:len(a.buf):len(a.buf)]
}

// partIs reports whether raw[s:e], decoded when esc, is name.
func (a *Args) partIs(s, e int, esc bool, name string) bool {
	if !esc {
		return string(a.raw[s:e]) == name
	}
	return formDecodedEqual(a.raw[s:e], name)
}

// splitPairs stores the non-empty pairs of raw from offset off on in dst,
// in order, until dst is full or raw ends, with eq unknown (-1). It
// returns how many it stored and the offset after them: just past the "&"
// ending the last one, or len(raw). It takes the bitmap of the "&" of 64
// bytes at a time (ascii.Match) and visits its set bits.
func splitPairs(raw []byte, off int, dst []argPair) (n, next int) {
	start := off // of the pair being read
	for base := off; base < len(raw); base += 64 {
		for m := ascii.Match(raw, base, '&'); m != 0; m &= m - 1 {
			end := base + bits.TrailingZeros64(m)
			if end > start {
				dst[n] = argPair{start, -1, end, raw[start]}
				if n++; n == len(dst) {
					return n, end + 1
				}
			}
			start = end + 1
		}
	}
	if start < len(raw) {
		dst[n] = argPair{start, -1, len(raw), raw[start]}
		n++
	}
	return n, len(raw)
}

// locateEq sets p.eq, if not yet known, to the offset of the first "=" in
// p, or p.end when there is none.
func (a *Args) locateEq(p *argPair) {
	if p.eq >= 0 {
		return
	}
	p.eq = p.end
	for i := p.start; i < p.end; i++ {
		if a.raw[i] == '=' {
			p.eq = i
			return
		}
	}
}

// nameIs reports whether the decoded name of p is name.
func (a *Args) nameIs(p *argPair, name string) bool {
	a.locateEq(p)
	return a.partIs(p.start, p.eq, p.eq > a.plain, name)
}

// value returns the decoded value of p.
func (a *Args) value(p *argPair) []byte {
	a.locateEq(p)
	if p.eq == p.end {
		return a.raw[p.end:p.end:p.end]
	}
	return a.part(p.eq+1, p.end, p.end > a.plain && hasFormEscape(a.raw[p.eq+1:p.end]))
}

// hasFormEscape reports whether b holds "%" or "+".
func hasFormEscape(b []byte) bool {
	for _, c := range b {
		if c == '%' || c == '+' {
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
	dst = slices.Grow(dst, len(src)) // decoding never grows
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '+':
			c = ' '
		case '%':
			if b, ok := unescapeAt(src, i); ok {
				c, i = b, i+2
			}
		}
		dst = append(dst, c)
	}
	return dst
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
