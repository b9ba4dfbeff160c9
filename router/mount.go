package router

import (
	"strings"

	"github.com/brisk-http/brisk"
)

// Mount routes the subtree under pattern to h, which sees the rest of the
// path: pattern is "[METHOD ][HOST]/PATH", not ending in a "{x...}" or
// "{$}" wildcard, with or without a trailing "/" ("/debug" and "/debug/"
// are the same mount, as a subtree is written for net/http.ServeMux),
// and Mount registers it with a "/" (so "/api" is redirected to "/api/",
// as for any subtree). Mount("/", h) hands every request to h. A Router serving
// as h (its Serve method) routes the rest of the path, from its "/":
// mounted at "/api", it matches "/users/1" for "/api/users/1", and its
// redirects name the whole path. Ctx.Param sees the wildcards of both
// patterns (the inner one wins on a name in both), and Ctx.Pattern is the
// mounted router's pattern. Request.Path is unchanged. Like Handle, Mount
// panics with Register's error.
//
// A net/http Handler is mounted the same way, through brisk.FromHTTP:
// Mount("/debug", brisk.FromHTTP(mux)). It sees the whole path too
// (URL.Path "/debug/pprof/" for "/debug/pprof/"), so register its routes
// with the mount pattern's path in front, or strip it with
// http.StripPrefix.
func (r *Router) Mount(pattern string, h brisk.Handler) {
	if h == nil {
		panic(&PatternError{Pattern: pattern, Reason: "nil handler"})
	}
	if !strings.HasSuffix(pattern, "/") {
		pattern += "/"
	}
	if err := r.register(pattern, h, true); err != nil {
		panic(err)
	}
}

// mountParam is the path parameter through which a Mount route hands the
// rest of the path, from its "/", to the Router it mounts: a part of
// Request.Path, so the Ctx keeps it as offsets. It is not an identifier,
// so no pattern's wildcard can have its name.
const mountParam = "(router.Mount)"

// serveMounted runs the Mount route rt on c, rest being the part of the
// path its trailing "/" matched. A Router serving c then routes rest.
func serveMounted(c *brisk.Ctx, rt *route, rest []byte) {
	outer := c.Param(mountParam) // nil, or an enclosing Mount's
	c.SetParam(mountParam, rest)
	rt.h(c)
	c.SetParam(mountParam, outer) // nil reads back empty: not mounted
}
