package brisk

import "bytes"

// dispatch routes c (see Router): the route's handler, or a reply of the
// Router's own.
func (r *Router) dispatch(c *Ctx) {
	s := &c.route
	if s.params == nil {
		s.params = s.pinline[:0]
	}
	s.params, s.pattern = s.params[:s.mark], ""
	full := c.Request.Path()
	path := full
	if s.base > 0 { // under Mount
		path = full[min(s.base, len(full)):]
	}
	if len(path) == 0 || path[0] != '/' { // "*" or authority-form
		c.Response.setError(404)
		return
	}
	method := c.Request.Method()
	var host []byte
	if len(r.t.hosts) > 0 {
		host = hostWithoutPort(c.Request.Host())
	}
	mark := len(s.params)
	s.path = full
	rt, exact := r.t.lookup(host, method, path, s)
	if !exact && path[len(path)-1] != '/' && r.slashMatches(host, method, path, s) {
		r.redirect(c, full, true)
		return
	}
	raw := c.Request.uri.RawPath
	plain := len(raw) > 0 && len(raw) == len(full) && &raw[0] == &full[0] // no escape, no dot
	if !plain && s.base == 0 && !normalPath(raw) {
		r.redirect(c, full, false)
		return
	}
	if rt == nil {
		r.noRoute(c, host, path)
		return
	}
	if len(s.params) > mark {
		s.name(rt, mark, !plain)
	}
	s.pattern = rt.pattern
	rt.h(c)
}

// slashMatches reports whether path with a "/" appended matches a pattern
// exactly (no multi wildcard consuming anything), which calls for the
// trailing-slash redirect. It leaves s as it was.
func (r *Router) slashMatches(host, method, path []byte, s *routeState) bool {
	n, mark, rest, full := len(s.buf), len(s.params), s.rest, s.path
	s.buf = append(append(s.buf, path...), '/')
	s.path = s.buf[n:]
	rt, exact := r.t.lookup(host, method, s.path, s)
	s.buf, s.params, s.rest, s.path = s.buf[:n], s.params[:mark], rest, full
	return rt != nil && exact
}

// noRoute answers a request no pattern matches: 405 with Allow when
// patterns of other methods match its path (or the path with a "/"
// appended, as for the redirect), else 404.
func (r *Router) noRoute(c *Ctx, host, path []byte) {
	s := &c.route
	n := len(s.buf)
	b := s.buf
	var slashed []byte
	if path[len(path)-1] != '/' {
		b = append(append(b, path...), '/')
		slashed = b[n:]
	}
	allow := len(b)
	for _, m := range r.t.methods {
		if r.t.allows(host, m, path, s) || slashed != nil && r.t.allows(host, m, slashed, s) {
			if len(b) > allow {
				b = append(b, ", "...)
			}
			b = append(b, m...)
		}
	}
	s.buf = b[:n]
	if len(b) == allow {
		c.Response.setError(404)
		return
	}
	c.Response.setError(405)
	setField(&c.Response.Header, "Allow", b[allow:])
}

// hostWithoutPort returns host without its ":port", brackets of an
// IP-literal kept.
func hostWithoutPort(host []byte) []byte {
	if i := bytes.LastIndexByte(host, ':'); i > bytes.LastIndexByte(host, ']') {
		return host[:i]
	}
	return host
}
