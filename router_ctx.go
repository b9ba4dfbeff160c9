package brisk

import "bytes"

// Inline capacities of routeState: more path parameters or per-request
// values than these are kept in storage grown once per connection.
const (
	inlineParams = 8
	inlineValues = 4
)

// routeState is what routing leaves in the Ctx: the matched pattern, the
// values of its wildcards and the per-request values of Key.Set. It is
// the Ctx's one field for routing; reset clears it before each request.
type routeState struct {
	pattern string
	params  []param // wildcard values, in pattern order; backed by pinline
	values  []ctxValue
	base    int // Router.Mount: the mounted router routes Path()[base:]
	mark    int // Router.Mount: params before mark belong to the outer route
	rest    int // length of the path a multi wildcard matched, leading "/" included
	buf     []byte
	pinline [inlineParams]param
	vinline [inlineValues]ctxValue
}

// param is one wildcard's name and value. The value aliases Request.Path,
// or buf when it had an escape to decode.
type param struct {
	name  string
	value []byte
}

// reset clears s for a new request, keeping its storage. It does not
// allocate.
func (s *routeState) reset() {
	clear(s.values) // drop references to the previous request's values
	s.pattern, s.params, s.values, s.buf = "", s.params[:0], s.values[:0], s.buf[:0]
	s.base, s.mark, s.rest = 0, 0, 0
}

// push appends the value of the next wildcard; its name is set by name.
// s.params is non-nil (see dispatch).
func (s *routeState) push(v []byte) {
	s.params = append(s.params, param{value: v})
}

// name sets the names of the wildcards pushed since mark, from r, and
// decodes those whose value holds an escape ("%2F" is "/" in a value, as
// in net/http's PathValue). escapes is false when the path has none.
func (s *routeState) name(r *route, mark int, escapes bool) {
	ps := s.params[mark:]
	need := 0
	for i := range ps {
		ps[i].name = r.names[i]
		if escapes && bytes.IndexByte(ps[i].value, '%') >= 0 {
			need += len(ps[i].value)
		}
	}
	if need == 0 {
		return
	}
	if cap(s.buf)-len(s.buf) < need {
		s.buf = make([]byte, 0, max(need, 64)) // values decoded before keep the old array
	}
	for i := range ps {
		if v := ps[i].value; bytes.IndexByte(v, '%') >= 0 {
			start := len(s.buf)
			s.buf, _ = unescapeAll(v, s.buf) // Request.Path's escapes are valid
			ps[i].value = s.buf[start:len(s.buf):len(s.buf)]
		}
	}
}

// Param returns the value of the wildcard called name ("{name}" or
// "{name...}") in the pattern that matched the request, nil when it has
// none. The value is percent-decoded: a segment "a%2Fb" gives "a/b".
// With Router.Mount, the wildcards of the mount pattern and of the
// mounted router's pattern are both visible (the inner one wins on a
// name in both).
//
// The result aliases the request path or the Ctx's storage: valid until
// the handler returns; copy it to keep it. Param does not allocate.
func (c *Ctx) Param(name string) []byte {
	ps := c.route.params
	for i := len(ps) - 1; i >= 0; i-- {
		if ps[i].name == name {
			return ps[i].value
		}
	}
	return nil
}

// Pattern returns the pattern that matched the request, as registered
// (with its group prefix), "" when none did (404, 405, redirect). Under
// Router.Mount, it is the mounted router's pattern.
func (c *Ctx) Pattern() string { return c.route.pattern }
