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

// firstWords is how many words the first bytes of the indexed pairs take.
const firstWords = maxIndexedArgs / 8

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
// time, and keeps their first bytes eight to a word. A lookup compares
// its name only with the pairs that start with the name's first byte (or
// an escape), found eight at a time, byte by byte up to the first
// difference: a pair's name is decoded only when an escape comes before
// it, and its "=" is not looked for. Only the value returned is decoded,
// when it holds an escape. Pairs beyond the 32nd are scanned again on
// each lookup that reaches them. Iterations (All, Values) go through the
// pairs in order, splitting each from the bitmaps of "&", "=", "%" and
// "+" of the 64 bytes it starts in (a pair longer than that by vector
// scans of its bytes), and decode only the names and values that hold an
// escape.
//
// Returned names and values are valid until the next Reset. They alias
// the raw bytes when they need no decoding and an internal buffer,
// reused across Resets, otherwise; they must not be modified. The zero
// value holds no pairs. An Args is not safe for concurrent use.
type Args struct {
	raw    []byte
	pairs  [maxIndexedArgs]argPair // the first n pairs of raw
	firsts firstBytes              // their first bytes
	n      int
	rest   int    // raw[rest:] holds the pairs after pairs[:n]; -1: not indexed yet
	buf    []byte // decoded names and values
}

// argPair locates one non-empty pair in Args.raw, raw[start:end]: the name
// ends at its first "=", or at end when it has none.
type argPair struct{ start, end int }

// firstBytes holds the first byte of each indexed pair, eight to a word
// (pair i in byte i%8 of first[i/8], lowest first), and the bytes of
// those that are "%" or "+" (an escape, which may decode to any byte) set
// to 0x80 in esc, so that a lookup finds the pairs that may have a name
// with a few operations per eight pairs (ascii.Zero may mark a byte after
// a match too: that pair is only compared in vain). In the word of the
// last pair, the bytes past it are zero in both; later words are stale.
type firstBytes struct {
	first, esc [firstWords]uint64
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
	eq, end := a.find(name)
	if end < 0 {
		return nil
	}
	v := a.raw[min(eq+1, end):end:end]
	if hasFormEscape(v) { // decode's work, inlined here: part must stay small
		b := AppendFormDecoded(a.buf, v)
		v, a.buf = b[len(a.buf):len(b):len(b)], b
	}
	return v
}

// Has reports whether a pair named name exists.
func (a *Args) Has(name string) bool {
	_, end := a.find(name)
	return end >= 0
}

// find returns the offsets of the first "=" (end when there is none) and
// of the end of the first pair named name, or end -1 when there is none.
// It compares name with the indexed pairs that start with its first byte
// or an escape, then with the pairs past them, scanned one by one.
func (a *Args) find(name string) (eq, end int) {
	if a.rest < 0 { // once per Reset
		a.n, a.rest = splitPairs(a.raw, a.pairs[:], &a.firsts)
	}
	c := byte('=') // the first byte of a pair whose name is empty
	if len(name) > 0 {
		c = name[0]
	}
	for k, left := 0, a.n; left > 0; k, left = k+1, left-8 {
		m := ascii.Zero(a.firsts.first[k&(firstWords-1)]^ascii.Repeat(c)) | a.firsts.esc[k&(firstWords-1)]
		if left < 8 {
			m &= lowBits(uint(8 * left))
		}
		for ; m != 0; m &= m - 1 {
			p := a.pairs[(k*8+bits.TrailingZeros64(m)>>3)&(maxIndexedArgs-1)]
			switch n := rawNameIs(a.raw[p.start:p.end], name); {
			case n >= 0:
				return p.start + n, p.end
			case n == nameEscaped:
				if eq, ok := a.pairNamed(p.start, p.end, name); ok {
					return eq, p.end
				}
			}
		}
	}
	raw := a.raw
	for off := a.rest; off < len(raw); {
		end := len(raw)
		if j := bytes.IndexByte(raw[off:], '&'); j >= 0 {
			end = off + j
		}
		if end > off {
			if eq, ok := a.pairNamed(off, end, name); ok {
				return eq, end
			}
		}
		off = end + 1
	}
	return -1, -1
}

// pairNamed reports whether the pair raw[s:end] is named name, decoded,
// and returns the offset of its first "=", or end when it has none.
func (a *Args) pairNamed(s, end int, name string) (eq int, ok bool) {
	eq = end
	if i := bytes.IndexByte(a.raw[s:end], '='); i >= 0 {
		eq = s + i
	}
	return eq, formDecodedEqual(a.raw[s:eq], name)
}

// nameEscaped is what rawNameIs returns when only decoding tells.
const nameEscaped = -2

// rawNameIs compares name with the name of pair p, byte by byte, up to
// the first byte that differs or has a meaning in args. It returns the
// length of p's name when it is name, nameEscaped when p's name has an
// escape before any difference (then only decoding tells), and -1 when it
// is not name. A name that holds "%", "+" or "=" is never its raw bytes:
// it gives nameEscaped or -1.
func rawNameIs(p []byte, name string) int {
	i, n := 0, min(len(p), len(name))
	for ; i < n; i++ {
		if c := p[i]; c != name[i] || ascii.Class[c]&ascii.Form != 0 {
			break
		}
	}
	switch {
	case i == len(name):
		// p's name starts with name, and has no escape there: it is
		// name if it ends here, longer than name decoded otherwise.
		if i == len(p) || p[i] == '=' {
			return i
		}
	case i < len(p) && (p[i] == '%' || p[i] == '+'):
		return nameEscaped
	}
	return -1
}

// Values returns an iterator over the decoded values of all pairs named
// name, in order.
func (a *Args) Values(name string) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		raw := a.raw
		for i := 0; i < len(raw); {
			w := newArgWindow(raw, i)
			st := uint(0) // the start of the next pair, in the window
			for amps := w.amps; amps != 0; amps &= amps - 1 {
				end := uint(bits.TrailingZeros64(amps)) & 63
				if end > st {
					eq, escName, escValue := w.split(st, end)
					if a.partIs(i+int(st), i+int(eq), escName, name) &&
						!yield(a.part(i+int(min(eq+1, end)), i+int(end), escValue)) {
						return
					}
				}
				st = end + 1
			}
			if st == 0 { // a pair longer than the window
				eq, end, esc := scanPair(raw, i)
				if a.partIs(i, eq, esc&escName != 0, name) &&
					!yield(a.part(min(eq+1, end), end, esc&escValue != 0)) {
					return
				}
				st = uint(end - i + 1)
			}
			i += int(st)
		}
	}
}

// All returns an iterator over all pairs, decoded, in order. It reads the
// raw bytes once, in order, without the index that lookups build.
func (a *Args) All() iter.Seq2[[]byte, []byte] {
	return func(yield func(name, value []byte) bool) {
		raw := a.raw
		for i := 0; i < len(raw); {
			w := newArgWindow(raw, i)
			st := uint(0) // the start of the next pair, in the window
			for amps := w.amps; amps != 0; amps &= amps - 1 {
				end := uint(bits.TrailingZeros64(amps)) & 63
				if end > st {
					eq, escName, escValue := w.split(st, end)
					if !yield(a.part(i+int(st), i+int(eq), escName),
						a.part(i+int(min(eq+1, end)), i+int(end), escValue)) {
						return
					}
				}
				st = end + 1
			}
			if st == 0 { // a pair longer than the window
				eq, end, esc := scanPair(raw, i)
				if !yield(a.part(i, eq, esc&escName != 0), a.part(min(eq+1, end), end, esc&escValue != 0)) {
					return
				}
				st = uint(end - i + 1)
			}
			i += int(st)
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

// scanPair splits the pair that starts at raw[i], one longer than an
// argWindow, by bytes.IndexByte (vector code): it returns the offsets of
// its first "=" (end when there is none) and of its end (the "&" after
// it, or len(raw)), and which of its name and value hold an escape
// (escName, escValue).
func scanPair(raw []byte, i int) (eq, end int, esc uint8) {
	end = len(raw)
	if j := bytes.IndexByte(raw[i:], '&'); j >= 0 {
		end = i + j
	}
	eq = end
	if j := bytes.IndexByte(raw[i:end], '='); j >= 0 {
		eq = i + j
	}
	if longEscape(raw[i:eq]) {
		esc |= escName
	}
	if longEscape(raw[eq:end]) {
		esc |= escValue
	}
	return eq, end, esc
}

// longEscape is hasFormEscape for long parts: two vector scans.
func longEscape(b []byte) bool {
	return bytes.IndexByte(b, '%') >= 0 || bytes.IndexByte(b, '+') >= 0
}

// argWindow holds the bitmaps of the "&", "=" and escapes ("%", "+") of
// the 64 bytes of raw from a pair's start on (ascii.MatchArgs), for the
// iterations: the pairs that end in the window are split by a few
// operations on them, and the end of raw, when in the window, counts as
// an "&". A pair that runs past the window starts the next one; one
// longer than the window is split by scanPair.
type argWindow struct{ amps, eqs, esc uint64 }

// newArgWindow returns the window of the 64 bytes of raw from i on
// (i < len(raw)).
func newArgWindow(raw []byte, i int) argWindow {
	amps, eqs, esc := ascii.MatchArgs(raw, i)
	// The end of raw, when in the window: a shift by 64 or more gives 0.
	return argWindow{amps | 1<<uint(len(raw)-i), eqs, esc}
}

// split returns, for the pair at bits st to end-1 of w (st < end < 64),
// the offset in w of its first "=" (end when there is none) and whether
// its name and its value hold an escape.
func (w *argWindow) split(st, end uint) (eq uint, escName, escValue bool) {
	in := lowBits(end) &^ lowBits(st) // the pair's bits
	eq = uint(bits.TrailingZeros64(w.eqs&in|1<<(end&63))) & 63
	x := w.esc & in
	return eq, x&lowBits(eq) != 0, x>>eq != 0
}

// lowBits returns a word with its n lowest bits set; n < 64.
func lowBits(n uint) uint64 { return 1<<(n&63) - 1 }

// part returns raw[s:e], decoded when esc (it holds an escape), with its
// capacity capped so that a caller's append cannot overwrite later values.
func (a *Args) part(s, e int, esc bool) []byte {
	if !esc {
		return a.raw[s:e:e]
	}
	return a.decode(s, e)
}

// decode returns raw[s:e] decoded into a's buffer (see part). It is not
// inlined into part, which inlines into the iterations.
func (a *Args) decode(s, e int) []byte {
	b := AppendFormDecoded(a.buf, a.raw[s:e])
	v := b[len(a.buf):len(b):len(b)]
	a.buf = b
	return v
}

// partIs reports whether raw[s:e], decoded when esc, is name.
func (a *Args) partIs(s, e int, esc bool, name string) bool {
	if !esc {
		return string(a.raw[s:e]) == name
	}
	return formDecodedEqual(a.raw[s:e], name)
}

// splitPairs stores the first non-empty pairs of raw in dst, in order,
// until dst is full or raw ends, and their first bytes in f. It returns
// how many it stored and the offset after them: just past the "&" ending
// the last one, or len(raw). It takes the bitmap of the "&" of 64 bytes at
// a time (ascii.Match) and visits its set bits. The first bytes are
// gathered in a register and stored eight at a time, as whole words, so
// that a lookup reading them right after does not wait on eight byte
// stores.
func splitPairs(raw []byte, dst []argPair, f *firstBytes) (n, next int) {
	dst = dst[:maxIndexedArgs]
	start := 0   // of the pair being read
	var w uint64 // the first bytes since the last store, highest last
	for base := 0; base < len(raw); base += 64 {
		for m := ascii.Match(raw, base, '&'); m != 0; m &= m - 1 {
			end := base + bits.TrailingZeros64(m)
			if end > start {
				dst[n&(maxIndexedArgs-1)] = argPair{start, end}
				w = w>>8 | uint64(raw[start])<<56
				if n++; n&7 == 0 {
					f.store(n/8-1, w)
					if n == maxIndexedArgs {
						return n, end + 1
					}
				}
			}
			start = end + 1
		}
	}
	if start < len(raw) {
		dst[n&(maxIndexedArgs-1)] = argPair{start, len(raw)}
		w = w>>8 | uint64(raw[start])<<56
		n++
	}
	switch r := n & 7; {
	case r != 0:
		f.store(n/8, w>>(64-8*r))
	case start < len(raw): // the last pair filled a word
		f.store(n/8-1, w)
	}
	return n, len(raw)
}

// store sets word k of f to w, the first bytes of pairs 8k to 8k+7.
func (f *firstBytes) store(k int, w uint64) {
	f.first[k&(firstWords-1)] = w
	f.esc[k&(firstWords-1)] = ascii.Zero(w^ascii.Repeat('%')) | ascii.Zero(w^ascii.Repeat('+'))
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
	h, l := ascii.HexValue[src[i+1]], ascii.HexValue[src[i+2]]
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
