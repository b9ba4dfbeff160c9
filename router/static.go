package router

import "encoding/binary"

// staticIndex finds the patterns of one host without wildcards (literal
// segments, possibly ending in "{$}") by method and whole path, in one
// probe of an open-addressing hash table, where the tree takes one per
// segment. Such a pattern is the first match of its method's tree, which
// tries literal children first, so the index gives the route the tree
// would.
type staticIndex struct {
	slots []staticRoute // a power of two, at most half full; nil when empty
	shift uint8         // 64 - log2(len(slots))
	n     int           // routes held
	lens  uint64        // bit min(len(path), 63) set for each path held
}

// staticRoute is a slot of a staticIndex; r is nil when it is empty.
type staticRoute struct {
	hash         uint64 // staticHash(methodWord(method), path)
	mword        uint64 // methodWord(method)
	method, path string
	r            *route
}

// staticPath returns the path that segs, literals possibly ending in
// "{$}", match, and false when segs hold a wildcard.
func staticPath(segs []segment) (string, bool) {
	var b []byte
	for _, sg := range segs {
		switch sg.kind {
		case segLit:
			b = append(append(b, '/'), sg.s...)
		case segSlash:
			b = append(b, '/')
		default:
			return "", false
		}
	}
	return string(b), true
}

// find returns the route of method ("" for patterns without one) and
// path, or nil.
func (x *staticIndex) find(method, path []byte) *route {
	if x.lens&lenBit(path) == 0 { // the miss of most paths with wildcards
		return nil
	}
	w := methodWord(method)
	h := staticHash(w, path)
	mask := len(x.slots) - 1
	for i := int(h >> x.shift); ; i = (i + 1) & mask {
		e := &x.slots[i]
		if e.r == nil {
			return nil
		}
		if e.hash == h && e.mword == w && e.path == string(path) && (w != longMethod || e.method == string(method)) {
			return e.r
		}
	}
}

// add adds the route r of method and path, which the index does not hold.
func (x *staticIndex) add(method, path string, r *route) {
	if 2*(x.n+1) > len(x.slots) {
		old := x.slots
		x.slots, x.shift = make([]staticRoute, max(8, 2*len(old))), x.shift-1
		if old == nil {
			x.shift = 64 - 3
		}
		for _, e := range old {
			if e.r != nil {
				x.insert(e)
			}
		}
	}
	w := methodWord([]byte(method))
	x.insert(staticRoute{staticHash(w, []byte(path)), w, method, path, r})
	x.n++
	x.lens |= lenBit([]byte(path))
}

// lenBit returns the bit of staticIndex.lens for path.
func lenBit(path []byte) uint64 { return 1 << min(len(path), 63) }

func (x *staticIndex) insert(e staticRoute) {
	mask := len(x.slots) - 1
	i := int(e.hash >> x.shift)
	for x.slots[i].r != nil {
		i = (i + 1) & mask
	}
	x.slots[i] = e
}

// longMethod is the methodWord of the methods longer than eight bytes.
const longMethod = ^uint64(0)

// methodWord packs a method of up to eight bytes in a word, its last
// byte lowest; methods are tokens, without NUL, so distinct methods give
// distinct words. "" gives 0, a longer method longMethod (which no token
// gives: its bytes are ASCII).
func methodWord(m []byte) uint64 {
	if len(m) > 8 {
		return longMethod
	}
	var w uint64
	for _, c := range m {
		w = w<<8 | uint64(c)
	}
	return w
}

// staticHash mixes the method's word and every byte of path, eight at a
// time. The index's slot is its top bits.
func staticHash(w uint64, path []byte) uint64 {
	const k = 0x9e3779b97f4a7c15 // 2⁶⁴/φ, odd
	h := (w ^ uint64(len(path))) * k
	n := len(path)
	for i := 0; i+8 < n; i += 8 {
		h = (h ^ binary.LittleEndian.Uint64(path[i:])) * k
	}
	var v uint64
	switch {
	case n >= 8: // the last eight bytes, overlapping those mixed above
		v = binary.LittleEndian.Uint64(path[n-8:])
	case n >= 4:
		v = uint64(binary.LittleEndian.Uint32(path))<<32 | uint64(binary.LittleEndian.Uint32(path[n-4:]))
	default:
		for _, c := range path {
			v = v<<8 | uint64(c)
		}
	}
	return (h ^ v) * k
}
