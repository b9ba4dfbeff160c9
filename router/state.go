package router

import "sync"

// inlineParams is how many wildcard values a match holds on the stack;
// a pattern with more costs an allocation per request it matches.
const inlineParams = 16

// state is a match in progress, on the stack of dispatch: the values of
// the wildcards matched so far, as offsets into the path matched, which
// the Router hands to the Ctx (Ctx.SetPathParams) once a route is chosen.
// The values are in an array, not a slice of one, so that the matcher,
// which stores through its *state, does not move the array to the heap.
type state struct {
	path   []byte               // Request.Path: the base of the values' offsets
	n      int                  // wildcard values held, in pattern order
	rest   int                  // length of the path a multi wildcard matched, leading "/" included
	inline [inlineParams][2]int // path[b[0]:b[1]]: Ctx.SetPathParams's form
	more   [][2]int             // values from inlineParams on
}

// push appends the value of the next wildcard, v, a part of s.path (or of
// a probe, whose values are dropped: their offsets are then meaningless
// but harmless). Values are dropped by lowering s.n.
func (s *state) push(v []byte) {
	off := cap(s.path) - cap(v)
	b := [2]int{off, off + len(v)}
	if s.n < inlineParams {
		s.inline[s.n] = b
	} else {
		s.more = append(s.more[:s.n-inlineParams], b)
	}
	s.n++
}

// scratch is a buffer for the Router's slower paths: a probe path with
// "/" appended or a decoded value longer than the caller's array on the
// stack, and the Allow and Location fields (see field). Pooled: no
// allocation per request once grown.
type scratch struct {
	b    []byte
	name int // field: the length of the field name that starts b
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// room returns stack[:0] when n bytes fit in it, else the empty buffer
// of a pooled scratch of capacity n at least, to be given back with
// release.
func room(stack []byte, n int) ([]byte, *scratch) {
	if n <= cap(stack) {
		return stack[:0], nil
	}
	sc := scratchPool.Get().(*scratch)
	if cap(sc.b) < n {
		sc.b = make([]byte, 0, n)
	}
	return sc.b[:0], sc
}

// release gives sc, if any, back to the pool.
func release(sc *scratch) {
	if sc != nil {
		scratchPool.Put(sc)
	}
}
