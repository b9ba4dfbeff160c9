package brisk

import "strings"

// Mount routes the subtree under pattern to h, which sees the rest of the
// path: pattern is "[METHOD ][HOST]/PATH" not ending in "/" (nor in a
// "{x...}" or "{$}" wildcard), and Mount registers pattern + "/" (so
// "/api" is redirected to "/api/", as for any subtree). A Router serving
// as h (its Serve method) routes the rest of the path, from its "/":
// mounted at "/api", it matches "/users/1" for "/api/users/1", and its
// redirects name the whole path. Ctx.Param sees the wildcards of both
// patterns. Request.Path is unchanged. Like Handle, Mount panics with
// Register's error.
//
// A net/http Handler is mounted the same way, through FromHTTP:
// Mount("/debug", FromHTTP(mux)). It sees the whole path too (URL.Path
// "/debug/pprof/" for "/debug/pprof/"), so register its routes with the
// mount pattern's path in front, or strip it with http.StripPrefix.
func (r *Router) Mount(pattern string, h Handler) {
	if strings.HasSuffix(pattern, "/") {
		panic(&PatternError{Pattern: pattern, Offset: len(pattern) - 1, Reason: "Mount pattern ends with \"/\""})
	}
	if h == nil {
		panic(&PatternError{Pattern: pattern, Reason: "nil handler"})
	}
	r.Handle(pattern+"/", mounted(h))
}

// mounted runs h on the rest of the path that the mount pattern's
// trailing "/" matched.
func mounted(h Handler) Handler {
	return func(c *Ctx) {
		s := &c.route
		base, mark := s.base, s.mark
		s.base, s.mark = len(c.Request.Path())-s.rest, len(s.params)
		h(c)
		s.base, s.mark = base, mark
	}
}
