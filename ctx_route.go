package brisk

// First capacities of routeState's storage, allocated on the first use
// by a connection (an idle connection that never routed holds none): more
// path parameters or per-request values than these grow it, once per
// connection.
const (
	inlineParams = 6
	inlineValues = 4
)

// routeState is what routing leaves in the Ctx: the matched pattern
// (SetRoute), the path parameters (SetParam, SetPathParams) and the
// per-request values of Key.Set. reset clears it before each request.
type routeState struct {
	pattern string
	path    []byte  // Request.Path: the base of the parameters' offsets
	params  []param // in the order set
	values  []ctxValue
	buf     []byte // copied parameter values
}

// param is one path parameter's name and value: path[off:end], or, when
// off has the bit inBuf, buf[off&^inBuf:end] (a copied value). Offsets
// keep the Ctx small (TestConnSize).
type param struct {
	name     string
	off, end uint32
}

const inBuf = 1 << 31

// value returns the value of p, not nil when empty.
func (s *routeState) value(p param) []byte {
	if p.off&inBuf != 0 {
		if v := s.buf[p.off&^inBuf : p.end : p.end]; v != nil {
			return v
		}
		return []byte{} // empty, not absent (storage not grown yet)
	}
	return s.path[p.off:p.end:p.end]
}

// reset clears s for a new request, keeping its storage. It does not
// allocate.
func (s *routeState) reset() {
	clear(s.values) // drop references to the previous request's values
	s.pattern, s.path, s.params, s.values, s.buf = "", nil, s.params[:0], s.values[:0], s.buf[:0]
}

// Param returns the value of the path parameter name, nil when the
// request has none: the value set last for name with SetParam. For
// router.Router, it is the value of the wildcard "{name}" or "{name...}"
// of the pattern that matched, percent-decoded as net/http's PathValue: a
// segment "a%2Fb" gives "a/b", and "%0D%0A", "%00" or "%5C" give CR LF,
// NUL or "\", which Request.Path keeps encoded. It may thus hold any
// byte: validate or escape it before using it in a file name, a field
// value or HTML.
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

// SetParam sets the path parameter name to value: Param returns it (the
// value set last for name) until the handler returns, and the server
// clears every parameter before the next request, as net/http's
// Request.SetPathValue. It is how a router hands the handler the values
// it found in the path; SetPathParams sets several parts of the path in
// one call, SetRoute records the pattern, ResetRoute forgets both.
//
// A value that is part of Request.Path (a sub-slice p[i:j] of the slice
// Path returns) is kept as its offsets in the path; any other value is
// copied into the Ctx's storage. Either way the Ctx does not keep value
// itself: the caller may reuse its bytes once SetParam returns. Each call
// takes room until the request ends (or ResetRoute). SetParam does not
// allocate for the first six parameters of a request that are parts of
// the path, past the connection's first (more, and copies, use storage
// grown once per connection).
func (c *Ctx) SetParam(name string, value []byte) {
	s := &c.route
	path := c.Request.Path()
	p := param{name: name}
	if off, ok := offsetIn(path, value); ok {
		s.path = path
		p.off, p.end = uint32(off), uint32(off+len(value))
	} else {
		start := len(s.buf)
		s.buf = append(s.buf, value...)
		p.off, p.end = uint32(start)|inBuf, uint32(len(s.buf))
	}
	if s.params == nil {
		s.params = make([]param, 0, inlineParams)
	}
	s.params = append(s.params, p)
}

// SetPathParams sets the path parameter names[i] to the part of
// Request.Path between the offsets bounds[i] (Path()[b[0]:b[1]] for
// b = bounds[i]), for each i, as SetParam does for one such part: what a
// router that matched the path has, handed over in one call
// (router.Router does). The offsets are in the slice Path returned (on a
// request built by hand, Path must have been called); names and bounds
// have the same length; bounds outside the path panic, as slicing does.
// Like SetParam, it does not allocate for the first six parameters of a
// request past the connection's first; it keeps neither slice.
func (c *Ctx) SetPathParams(names []string, bounds [][2]int) {
	s, path := &c.route, c.Request.path // small enough to be inlined
	ps := s.params
	if ps == nil && len(bounds) > 0 {
		ps = make([]param, 0, inlineParams)
	}
	for i, b := range bounds {
		_ = path[b[0]:b[1]] // in the path
		ps = append(ps, param{names[i], uint32(b[0]), uint32(b[1])})
	}
	s.params, s.path = ps, path
}

// offsetIn returns the offset of v in path when v is a non-empty
// sub-slice of it (path[i:j], whose capacity ends where path's does).
func offsetIn(path, v []byte) (int, bool) {
	off := cap(path) - cap(v)
	if uint(off) >= uint(len(path)) || len(v) == 0 || len(v) > len(path)-off || &path[off] != &v[0] {
		return 0, false
	}
	return off, true
}

// SetRoute records the route pattern that matched the request (e.g.
// "/users/{id}"), returned by Pattern and reported as RequestInfo.Route.
// A router calls it, as it calls SetPathParams or SetParam for the
// values (router.Router does both); a handler routed by other means may
// too. It is cleared for each request.
func (c *Ctx) SetRoute(pattern string) { c.route.pattern = pattern }

// ResetRoute forgets the pattern and the path parameters set for the
// request (SetRoute, SetParam, SetPathParams), as the server does before
// each request: a router calls it before it routes, so that nothing an
// earlier routing of the same request set shows through.
func (c *Ctx) ResetRoute() {
	s := &c.route
	s.pattern, s.params, s.buf = "", s.params[:0], s.buf[:0]
}

// Pattern returns the route pattern that matched the request, as the
// router recorded it with SetRoute (router.Router: the pattern as
// registered, with its group prefix; under Mount, the mounted router's),
// "" when none did (404, 405, a redirect, or no router).
func (c *Ctx) Pattern() string { return c.route.pattern }
