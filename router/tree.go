package router

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/ascii"
)

// The routing tree branches on the host, then the method, then each path
// segment, like net/http.ServeMux's. Matching tries, at each segment, the
// literal child, then the single wildcard, then the multi wildcard,
// backing up when a branch fails: since conflicting patterns are refused
// at registration, the first match in that order is the most specific
// pattern.

// route is a registered pattern and its handler.
type route struct {
	pattern string
	names   []string      // names of the pattern's wildcards, in order
	h       brisk.Handler // with the middleware of its groups
	mount   bool          // a Mount: h routes the rest of the path (serveMounted)
}

// node is a position in a pattern's path, after zero or more segments.
type node struct {
	leaf       *route     // a pattern ends here
	slash      *route     // a pattern ends here with "{$}"
	multi      *route     // a pattern ends here with "{x...}" or "/"
	multiNamed bool       // multi has a name: its value is a parameter
	wild       *node      // "{x}"
	kids       []litChild // literal children
	slots      []uint16   // more than linearChildren: see index
	shift      uint8
}

// litChild is a literal child of a node.
type litChild struct {
	key uint32 // segKey(lit)
	lit string // the segment, in Request.Path's form
	n   *node
}

// segKey summarises a segment (length, first, middle and last bytes) so
// that a literal child is found by comparing one word per child. The key
// of a segment of at most three bytes holds all of them: equal keys are
// equal segments.
func segKey[B []byte | string](s B) uint32 {
	if len(s) == 0 {
		return 0
	}
	return uint32(min(len(s), 0xff))<<24 | uint32(s[0])<<16 | uint32(s[len(s)/2])<<8 | uint32(s[len(s)-1])
}

// linearChildren is the most literal children a node scans one by one;
// a node with more finds them through a hash table of their keys.
const linearChildren = 8

// child returns the literal child seg, or nil.
func (n *node) child(seg []byte) *node {
	k := segKey(seg)
	if n.slots == nil {
		for i := range n.kids {
			if c := &n.kids[i]; c.key == k && (len(seg) <= 3 || c.lit == string(seg)) {
				return c.n
			}
		}
		return nil
	}
	mask := uint32(len(n.slots) - 1)
	for i := slotOf(k, n.shift); ; i = (i + 1) & mask {
		j := n.slots[i]
		if j == 0 {
			return nil
		}
		if c := &n.kids[j-1]; c.key == k && (len(seg) <= 3 || c.lit == string(seg)) {
			return c.n
		}
	}
}

// slotOf is the first slot tried for key k in a table of 1<<(32-shift)
// slots (Fibonacci hashing).
func slotOf(k uint32, shift uint8) uint32 { return (k * 0x9e3779b1) >> shift }

// addChild returns the literal child lit, adding it if needed.
func (n *node) addChild(lit string) *node {
	for _, c := range n.kids {
		if c.lit == lit {
			return c.n
		}
	}
	c := &node{}
	n.kids = append(n.kids, litChild{segKey(lit), lit, c})
	if len(n.kids) > linearChildren {
		n.index()
	}
	return c
}

// index rebuilds the hash table of the literal children, at most half
// full: slots hold a child's index plus one, 0 when empty.
func (n *node) index() {
	bits := uint8(1)
	for 1<<bits < 2*len(n.kids) {
		bits++
	}
	n.slots, n.shift = make([]uint16, 1<<bits), 32-bits
	mask := uint32(len(n.slots) - 1)
	for j, c := range n.kids {
		i := slotOf(c.key, n.shift)
		for n.slots[i] != 0 {
			i = (i + 1) & mask
		}
		n.slots[i] = uint16(j + 1)
	}
}

// add adds the route r of the segments segs under n.
func (n *node) add(segs []segment, r *route) {
	for _, sg := range segs {
		switch sg.kind {
		case segLit:
			n = n.addChild(sg.s)
		case segWild:
			if n.wild == nil {
				n.wild = &node{}
			}
			n = n.wild
		case segSlash:
			n.slash = r
			return
		case segMulti:
			n.multi, n.multiNamed = r, sg.s != ""
			return
		}
	}
	n.leaf = r
}

// match returns the route matching path under n, pushing its wildcard
// values on s (left as they were when there is no match). exact is false
// when a multi wildcard matched a non-empty rest of the path. path is
// empty or starts with "/". It calls itself only where it may have to
// back up (a literal child and a wildcard, or both wildcards); else it
// steps down in a loop.
func (n *node) match(path []byte, s *state) (r *route, exact bool) {
	mark := s.n
	for {
		switch len(path) {
		case 0:
			r, exact = n.leaf, true
		case 1: // the trailing "/", which a single wildcard does not match
			r, exact = n.slash, true
			if r == nil {
				r, exact = n.matchMulti(path, s)
			}
		default:
			i := segmentEnd(path)
			seg, rest := path[1:i], path[i:]
			var c *node
			if len(n.kids) > 0 { // not the call, for a node of wildcards only
				c = n.child(seg)
			}
			if c != nil {
				if n.wild == nil && n.multi == nil { // no other way: step down
					n, path = c, rest
					continue
				}
				if len(rest) == 0 { // the common end: no call
					if c.leaf != nil {
						return c.leaf, true
					}
				} else if r, exact := c.match(rest, s); r != nil {
					return r, exact
				}
			}
			if n.wild != nil {
				s.push(seg)
				if n.multi == nil {
					n, path = n.wild, rest
					continue
				}
				if r, exact := n.wild.match(rest, s); r != nil {
					return r, exact
				}
				s.n--
			}
			r, exact = n.matchMulti(path, s)
		}
		if r == nil {
			s.n = mark
			return nil, false
		}
		return r, exact
	}
}

// matchMulti matches path, empty or starting with "/", to n's multi
// wildcard.
func (n *node) matchMulti(path []byte, s *state) (*route, bool) {
	if n.multi == nil {
		return nil, false
	}
	if n.multiNamed {
		s.push(path[1:])
	}
	s.rest = len(path)
	return n.multi, len(path) == 1
}

// methodRoutes is the tree of one method.
type methodRoutes struct {
	method string
	root   *node
}

// hostRoutes is the tree of one host ("" for patterns without a host).
type hostRoutes struct {
	host    string
	methods []methodRoutes
	any     *node // patterns without a method
	static  staticIndex
}

// tree returns the root for method ("" for any), or nil.
func (h *hostRoutes) tree(method []byte) *node {
	if len(method) == 0 {
		return h.any
	}
	for i := range h.methods {
		if h.methods[i].method == string(method) {
			return h.methods[i].root
		}
	}
	return nil
}

// addTree returns the root for method, adding it if needed.
func (h *hostRoutes) addTree(method string) *node {
	if n := h.tree([]byte(method)); n != nil {
		return n
	}
	n := &node{}
	if method == "" {
		h.any = n
	} else {
		h.methods = append(h.methods, methodRoutes{method, n})
	}
	return n
}

// lookup matches method and path: the method's own patterns first, then
// GET's for HEAD, then the patterns without a method.
func (h *hostRoutes) lookup(method, path []byte, s *state) (*route, bool) {
	if len(method) > 0 {
		if r := h.static.find(method, path); r != nil { // the commonest hit
			return r, true
		}
	}
	return h.lookupTrees(method, path, s)
}

// lookupTrees is lookup once the probe of the static index for method
// has missed (see Router.dispatch).
func (h *hostRoutes) lookupTrees(method, path []byte, s *state) (*route, bool) {
	if len(method) > 0 {
		if n := h.tree(method); n != nil {
			if r, exact := n.match(path, s); r != nil {
				return r, exact
			}
		}
		if string(method) == "HEAD" {
			if r, exact := h.match([]byte("GET"), path, s); r != nil {
				return r, exact
			}
		}
	}
	return h.match(nil, path, s)
}

// match matches path to the patterns of method ("" for those without a
// method): those without wildcards first, through the index.
func (h *hostRoutes) match(method, path []byte, s *state) (*route, bool) {
	if r := h.static.find(method, path); r != nil {
		return r, true
	}
	if n := h.tree(method); n != nil {
		return n.match(path, s)
	}
	return nil, false
}

// table holds every route of a Router and its groups.
type table struct {
	hosts    []*hostRoutes // patterns with a host
	nohost   hostRoutes
	patterns []*pattern         // registered, in order, for conflict checks
	methods  []string           // the methods of the patterns, sorted, with HEAD if GET
	allowLen int                // the length of an Allow value listing every method
	onError  brisk.ErrorHandler // SetErrorHandler; nil: the Server's
}

// host returns the tree of host, compared ignoring case, or nil.
func (t *table) host(host []byte) *hostRoutes {
	for _, h := range t.hosts {
		if ascii.EqualFold(host, h.host) {
			return h
		}
	}
	return nil
}

// add registers p with r, after checking that it conflicts with no
// registered pattern.
func (t *table) add(p *pattern, r *route) error {
	for _, q := range t.patterns {
		if why := conflict(p, q); why != "" {
			return &PatternError{Pattern: p.str, Conflict: q.str, Offset: -1, Reason: why}
		}
	}
	t.patterns = append(t.patterns, p)
	h := &t.nohost
	if p.host != "" {
		if h = t.host([]byte(p.host)); h == nil {
			h = &hostRoutes{host: p.host}
			t.hosts = append(t.hosts, h)
		}
	}
	h.addTree(p.method).add(p.segs, r)
	if path, ok := staticPath(p.segs); ok {
		h.static.add(p.method, path, r)
	}
	if p.method != "" {
		t.addMethod(p.method)
		if p.method == "GET" {
			t.addMethod("HEAD")
		}
	}
	return nil
}

func (t *table) addMethod(m string) {
	if i, found := slices.BinarySearch(t.methods, m); !found {
		t.methods = slices.Insert(t.methods, i, m)
		t.allowLen += len(", ") + len(m)
	}
}

// lookup matches a request: the patterns of its host first, then those
// without a host. host has no port.
func (t *table) lookup(host, method, path []byte, s *state) (*route, bool) {
	if len(t.hosts) > 0 && len(host) > 0 {
		if h := t.host(host); h != nil {
			if r, exact := h.lookup(method, path, s); r != nil {
				return r, exact
			}
		}
	}
	return t.nohost.lookup(method, path, s)
}

// allows reports whether a pattern with the method m (not "") matches
// host and path, as net/http's ServeMux counts methods for Allow: HEAD is
// allowed where GET is.
func (t *table) allows(host []byte, m string, path []byte, s *state) bool {
	hosts := [2]*hostRoutes{&t.nohost}
	if len(host) > 0 {
		hosts[1] = t.host(host)
	}
	for _, h := range hosts {
		if h != nil && (h.matches(m, path, s) || m == "HEAD" && h.matches("GET", path, s)) {
			return true
		}
	}
	return false
}

// matches reports whether a pattern of method m matches path; s is left
// as it was.
func (h *hostRoutes) matches(m string, path []byte, s *state) bool {
	mark := s.n
	r, _ := h.match([]byte(m), path, s)
	s.n = mark
	return r != nil
}

// segmentEnd returns the index of the "/" that ends the first segment of
// path (which starts with "/"), or len(path). It reads eight bytes at a
// time: segments are too short for bytes.IndexByte's call to pay.
func segmentEnd(path []byte) int {
	i := 1
	for ; i+8 <= len(path); i += 8 {
		x := binary.LittleEndian.Uint64(path[i:])
		if m := ascii.Zero(x ^ ascii.Repeat('/')); m != 0 {
			return i + bits.TrailingZeros64(m)/8 // the lowest mark is exact
		}
	}
	for i < len(path) && path[i] != '/' {
		i++
	}
	return i
}
