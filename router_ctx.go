package brisk

import "bytes"

// Inline capacities of routeState: more path parameters or per-request
// values than these are kept in storage grown once per connection.
const (
	inlineParams = 6
	inlineValues = 4
)

// routeState is what routing leaves in the Ctx: the matched pattern, the
// values of its wildcards and the per-request values of Key.Set. It is
// the Ctx's one field for routing; reset clears it before each request.
type routeState struct {
	pattern string
	path    []byte  // the path being matched: Request.Path, or a probe in buf
	params  []param // wildcard values, in pattern order; backed by pinline
	values  []ctxValue
	base    int // Router.Mount: the mounted router routes Path()[base:]
	mark    int // Router.Mount: params before mark belong to the outer route
	rest    int // length of the path a multi wildcard matched, leading "/" included
	buf     []byte
	pinline [inlineParams]param
	vinline [inlineValues]ctxValue
}

// param is one wildcard's name and value: path[off:end], or, when off
// has the bit inBuf, buf[off&^inBuf:end] (a value with an escape, decoded).
// Offsets keep the Ctx small (TestConnSize).
type param struct {
	name     string
	off, end uint32
}

const inBuf = 1 << 31

// value returns the value of p.
func (s *routeState) value(p param) []byte {
	if p.off&inBuf != 0 {
		return s.buf[p.off&^inBuf : p.end : p.end]
	}
	return s.path[p.off:p.end:p.end]
}

// reset clears s for a new request, keeping its storage. It does not
// allocate.
func (s *routeState) reset() {
	clear(s.values) // drop references to the previous request's values
	s.pattern, s.path, s.params, s.values, s.buf = "", nil, s.params[:0], s.values[:0], s.buf[:0]
	s.base, s.mark, s.rest = 0, 0, 0
}

// push appends the value of the next wildcard, v, a part of s.path; its
// name is set by name. s.params is non-nil (see dispatch).
func (s *routeState) push(v []byte) {
	off := uint32(cap(s.path) - cap(v))
	s.params = append(s.params, param{off: off, end: off + uint32(len(v))})
}

// name sets the names of the wildcards pushed since mark, from r, and
// decodes those whose value holds an escape ("%2F" is "/" in a value, as
// in net/http's PathValue). escapes is false when the path has none.
func (s *routeState) name(r *route, mark int, escapes bool) {
	ps := s.params[mark:]
	for i := range ps {
		ps[i].name = r.names[i]
		if !escapes {
			continue
		}
		if v := s.value(ps[i]); bytes.IndexByte(v, '%') >= 0 {
			start := len(s.buf)
			s.buf, _ = unescapeAll(v, s.buf) // Request.Path's escapes are valid
			ps[i].off, ps[i].end = uint32(start)|inBuf, uint32(len(s.buf))
		}
	}
}

// Param returns the value of the wildcard called name ("{name}" or
// "{name...}") in the pattern that matched the request, nil when it has
// none. The value is percent-decoded, as net/http's PathValue: a segment
// "a%2Fb" gives "a/b", and "%0D%0A", "%00" or "%5C" give CR LF, NUL or
// "\", which Request.Path keeps encoded. It may thus hold any byte:
// validate or escape it before using it in a file name, a field value or
// HTML.
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
			return c.route.value(ps[i])
		}
	}
	return nil
}

// Pattern returns the pattern that matched the request, as registered
// (with its group prefix), "" when none did (404, 405, redirect). Under
// Router.Mount, it is the mounted router's pattern.
func (c *Ctx) Pattern() string { return c.route.pattern }
