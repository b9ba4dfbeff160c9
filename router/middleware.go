package router

import "github.com/brisk-http/brisk"

// Use adds middleware to r, the first given outermost:
//   - on the Router from New, it wraps everything the Router
//     answers, its own 404, 405 and redirects included; it runs before
//     the route is chosen, so Ctx.Param and Ctx.Pattern are set only
//     after it calls next. It may be called at any time before serving.
//   - on a Group, it wraps the handlers registered through the group and
//     its subgroups, inside the middleware of the groups it was made
//     from; Ctx.Param and Ctx.Pattern are set. It must be called before
//     any route is registered through the group, else it panics.
func (r *Router) Use(mw ...brisk.Middleware) {
	if r.sealed && r.parent != nil {
		panic("router: Router.Use on a group after routes were registered through it")
	}
	r.mw = append(r.mw, mw...)
	if r.parent == nil {
		r.serve = chain(r.mw, r.dispatch)
	}
}

// wrap wraps h in the middleware of r's groups, innermost first, up to
// (not including) the root's.
func (r *Router) wrap(h brisk.Handler) brisk.Handler {
	for g := r; g.parent != nil; g = g.parent {
		h = chain(g.mw, h)
	}
	return h
}

// chain wraps h in mw, mw[0] outermost.
func chain(mw []brisk.Middleware, h brisk.Handler) brisk.Handler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}
