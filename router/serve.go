package router

import (
	"bytes"
	"slices"

	"github.com/brisk-http/brisk"
)

// dispatch routes c (see Router): the route's handler, or a reply of the
// Router's own.
func (r *Router) dispatch(c *brisk.Ctx) {
	full := c.Request.Path()
	path := full
	rest := c.Param(mountParam) // a suffix of full, under Mount
	mounted := len(rest) > 0 && len(rest) <= len(full)
	if mounted {
		path = full[len(full)-len(rest):] // rest, with full's capacity (state.push)
	} else {
		c.ResetRoute() // what an earlier routing of c set does not show
	}
	if len(path) == 0 || path[0] != '/' { // "*" or authority-form
		r.reply(c, 404, ErrNotFound)
		return
	}
	method := c.Request.Method()
	// Path is the raw path itself when that needed no change (no escape,
	// no dot-segment), which in origin-form starts the request-target.
	target := c.Request.Target()
	plain := len(target) > 0 && &target[0] == &full[0]
	var host []byte
	if len(r.t.hosts) > 0 {
		host = hostWithoutPort(c.Request.Host())
	} else if len(method) > 0 {
		// The commonest hit, which table.lookup tries first: a pattern
		// without wildcards, so without values to match (state) or set.
		if rt := r.t.nohost.static.find(method, path); rt != nil {
			if !plain && !mounted && !normalTarget(c) {
				r.redirect(c, full, false)
				return
			}
			c.SetRoute(rt.pattern)
			rt.h(c)
			return
		}
	}
	var s state
	s.path = full
	var rt *route
	var exact bool
	if len(r.t.hosts) == 0 && len(method) > 0 {
		rt, exact = r.t.nohost.lookupTrees(method, path, &s) // the index missed, above
	} else {
		rt, exact = r.t.lookup(host, method, path, &s)
	}
	if !exact && path[len(path)-1] != '/' && r.slashMatches(host, method, path, &s) {
		r.redirect(c, full, true)
		return
	}
	if !plain && !mounted && !normalTarget(c) {
		r.redirect(c, full, false)
		return
	}
	if rt == nil {
		r.noRoute(c, host, path, &s)
		return
	}
	if s.n > 0 && plain && s.n <= inlineParams {
		c.SetPathParams(rt.names, s.inline[:s.n])
	} else if s.n > 0 {
		s.setParams(c, rt.names, plain)
	}
	c.SetRoute(rt.pattern)
	if rt.mount {
		serveMounted(c, rt, full[len(full)-s.rest:])
		return
	}
	rt.h(c)
}

// setParams hands the wildcard values in s to c one by one (Ctx.SetParam),
// named by names, their escapes decoded unless the path is plain (has
// none): dispatch hands over up to inlineParams plain values at once.
func (s *state) setParams(c *brisk.Ctx, names []string, plain bool) {
	var stack [128]byte
	for i := range s.n {
		var b [2]int
		if i < inlineParams {
			b = s.inline[i]
		} else {
			b = s.more[i-inlineParams]
		}
		v := s.path[b[0]:b[1]]
		if plain || bytes.IndexByte(v, '%') < 0 {
			c.SetParam(names[i], v) // a part of the path: kept as offsets
			continue
		}
		dec, sc := room(stack[:], len(v))
		dec, _ = unescapeAll(v, dec) // Request.Path's escapes are valid
		c.SetParam(names[i], dec)    // "%2F" is "/", as in net/http's PathValue; copied
		release(sc)
	}
}

// normalTarget reports whether the path of the request-target as
// received (Request.RawPath) is in normal form (see normalPath). An
// absolute-form target without a path ("http://h?q") is not: RawPath
// gives "/" for its empty path, which the request-target tells apart.
func normalTarget(c *brisk.Ctx) bool {
	raw := c.Request.RawPath()
	if len(raw) == 1 { // "/", as received or for an empty path
		var u brisk.URI
		if u.Parse(c.Request.Method(), c.Request.Target()) == nil {
			raw = u.RawPath
		}
	}
	return normalPath(raw)
}

// slashMatches reports whether path with a "/" appended matches a pattern
// exactly (no multi wildcard consuming anything), which calls for the
// trailing-slash redirect. It leaves s as it was.
func (r *Router) slashMatches(host, method, path []byte, s *state) bool {
	var stack [128]byte
	b, sc := room(stack[:], len(path)+1)
	b = append(append(b, path...), '/')
	mark, rest := s.n, s.rest
	rt, exact := r.t.lookup(host, method, b, s)
	s.n, s.rest = mark, rest
	release(sc)
	return rt != nil && exact
}

// noRoute answers a request no pattern matches: 405 with Allow when
// patterns of other methods match its path (or the path with a "/"
// appended, as for the redirect), else 404.
func (r *Router) noRoute(c *brisk.Ctx, host, path []byte, s *state) {
	var stack [128]byte
	slashed, ssc := room(stack[:], len(path)+1)
	defer release(ssc)
	if path[len(path)-1] != '/' {
		slashed = append(append(slashed, path...), '/')
	} else {
		slashed = nil
	}
	var allow *scratch // "Allow" and its value: see field
	for _, m := range r.t.methods {
		if r.t.allows(host, m, path, s) || slashed != nil && r.t.allows(host, m, slashed, s) {
			if allow == nil {
				allow = field("Allow", r.t.allowLen)
			} else {
				allow.b = append(allow.b, ", "...)
			}
			allow.b = append(allow.b, m...)
		}
	}
	if allow == nil {
		r.reply(c, 404, ErrNotFound)
		return
	}
	r.reply(c, 405, ErrMethodNotAllowed)
	setField(c, allow)
}

// field returns a pooled scratch holding name, room for a value of n
// bytes to be appended after it, for setField. The field is built on the
// heap because Header.SetBytes keeps its arguments from the stack (escape
// analysis does not see through the generic code it inlines).
func field(name string, n int) *scratch {
	sc := scratchPool.Get().(*scratch)
	sc.b = slices.Grow(sc.b[:0], len(name)+n)
	sc.b = append(sc.b, name...)
	sc.name = len(name)
	return sc
}

// setField sets the response field that sc holds (see field) and gives
// sc back to the pool.
func setField(c *brisk.Ctx, sc *scratch) {
	c.Response.Header.SetBytes(sc.b[:sc.name], sc.b[sc.name:])
	scratchPool.Put(sc)
}

// reply answers code for err through the Router's ErrorHandler, else the
// Server's (by default the short plain-text body of the server's own
// errors: the reason phrase, never any client byte). No pattern matched:
// Ctx.Pattern is "" (under Mount, not the mount pattern).
func (r *Router) reply(c *brisk.Ctx, code int, err error) {
	c.SetRoute("")
	if h := r.t.onError; h != nil {
		c.ErrorWith(h, code, err)
	} else {
		c.Error(code, err)
	}
}

// hostWithoutPort returns host without its ":port", brackets of an
// IP-literal kept.
func hostWithoutPort(host []byte) []byte {
	if i := bytes.LastIndexByte(host, ':'); i > bytes.LastIndexByte(host, ']') {
		return host[:i]
	}
	return host
}
