package router

import (
	"strings"

	"github.com/brisk-http/brisk"
)

// Router dispatches each request to the handler of the pattern that
// matches it, with the syntax, precedence and replies of
// net/http.ServeMux (Go 1.22 and later), at no allocation per request
// (for patterns of up to 16 wildcards).
//
// # Patterns
//
// A pattern is "[METHOD ][HOST]/[PATH]":
//
//	"/"                         every request
//	"GET /users/{id}"           GET (and HEAD) of "/users/" and one segment
//	"POST /files/{path...}"     POST of "/files/" and anything after it
//	"/static/"                  everything under "/static/" (a subtree)
//	"/{$}"                      only "/"
//	"api.example.com/"          requests for host api.example.com
//
// A method is a token followed by spaces or tabs; "GET" also matches HEAD.
// A host matches the request's host (Request.Host without its port),
// ignoring case. A path is matched segment by segment against
// Request.Path, which the server has decoded and normalized: "{name}"
// matches one non-empty segment, "{name...}" (last) the rest of the path,
// possibly empty, a trailing "/" likewise without a name, and "{$}"
// (last) the end of a path ending in "/". Names are Go identifiers,
// distinct within a pattern; Ctx.Param returns their values (the Router
// sets them with Ctx.SetPathParams, the pattern with Ctx.SetRoute). A
// literal segment is percent-decoded before it is compared with the
// decoded segment of the request: "/a%2Fb" matches the one-segment path
// "/a%2Fb" and "/%61" matches "/a".
//
// # Precedence and conflicts
//
// When several patterns match a request, the most specific wins: a
// pattern with a host wins over one without; else the one that matches a
// strict subset of the other's requests (method and path together), so
// "/images/thumbnails/" wins over "/images/" and "GET /{x}" over "/{x}".
// Register refuses a pattern that conflicts with a registered one (both
// match some request and neither is more specific, like "/a/{x}" and
// "/{y}/b"), with a *PatternError naming both (ErrPatternConflict).
//
// # Replies of its own
//
// For a request no pattern matches, a Router answers:
//   - 307 with Location naming the path with a "/" appended, when only
//     that path matches without a multi wildcard consuming anything
//     ("/images" when "/images/" is registered and "/images" is not);
//   - 307 to the normalized path, when the request's path was not in
//     normal form (dot-segments, repeated "/", see brisk.DecodePath, or the
//     empty path of an absolute-form target such as "http://example.com",
//     redirected to "/");
//   - 405 with an Allow field listing, sorted, the methods whose patterns
//     match the path (RFC 9110 §15.5.6), when some do;
//   - 404 otherwise, and for the asterisk-form ("OPTIONS *") and
//     authority-form (CONNECT) request-targets, which no pattern matches.
//
// The Location keeps the query. The responses go through the Router's
// ErrorHandler (SetErrorHandler), else the Server's (brisk.Ctx.Error),
// by default the short plain-text bodies of the server's own errors; the
// Allow and Location fields are set after it.
//
// # Differences from net/http.ServeMux
//
// Each is deliberate:
//   - Routing follows Request.Path, so a path differs from ServeMux's view
//     where brisk's normalization does: "%2e" and "%2E" count as "." in
//     dot-segments ("/a/%2e%2e/b" is redirected to "/b"; ServeMux matches
//     a segment ".."), and a path ending in a dot-segment is redirected
//     with its trailing "/" kept ("/a/." to "/a/", RFC 3986 §5.2.4;
//     ServeMux gives "/a").
//   - A segment that decodes to "/" ("%2F") is a segment like any other:
//     "/q/%2F" matches "/q/{v}" with v "/" and "/r/%2F/x" matches
//     "/r/{v}/x", but "/q/{$}" does not match "/q/%2F". ServeMux takes
//     such a segment for a trailing "/": "{v}" does not match it, "{$}"
//     does.
//   - A Location escapes the path once ("/b%20c" where ServeMux sends
//     "/b%2520c") and keeps "%2F" (ServeMux turns "/a%2Fb" into "/a/b/").
//   - Hosts compare ignoring case (RFC 9110 §4.2.3), so "Example.com/" and
//     "example.com/" are the same host and conflict.
//   - A host is matched without its port whatever its form: Host
//     "[::1]:8080" matches "[::1]/" as Host "[::1]" does. ServeMux strips
//     it to "::1", which its "[::1]/" does not match; its "::1/", which
//     does, matches no Host "[::1]" and brisk refuses it.
//   - Register refuses patterns that could never match a request brisk
//     routes: an unclean path ("/a/../b", also without a method), a
//     literal segment that decodes to "." or "..", a host with a port or
//     not a valid uri-host.
//   - A 404 or 405 reply has brisk's own body, and OPTIONS * is answered
//     404, not 400.
//
// Registration is not safe concurrently with serving: register every
// route and middleware before the Router serves its first request.
type Router struct {
	t      *table
	prefix string             // a group's path prefix, "" for the root
	parent *Router            // the group's parent, nil for the root
	mw     []brisk.Middleware // Use: see there
	serve  brisk.Handler      // root: mw around dispatch
	sealed bool               // a group whose routes have been registered
}

// New returns a Router with no routes: it answers every request 404.
func New() *Router {
	r := &Router{t: &table{}}
	r.serve = r.dispatch
	return r
}

// Register adds the route pattern with handler h, wrapped in the
// middleware of the groups it is registered through (see Group). It
// returns a *PatternError wrapping ErrPatternSyntax for a pattern that is
// malformed or can never match, or ErrPatternConflict for one that
// conflicts with a registered pattern; the Router is then unchanged. A
// nil h is a syntax error.
func (r *Router) Register(pattern string, h brisk.Handler) error {
	return r.register(pattern, h, false)
}

// register is Register; mount marks the route of a Mount.
func (r *Router) register(pattern string, h brisk.Handler, mount bool) error {
	p, err := parsePattern(r.withPrefix(pattern))
	if err != nil {
		return err
	}
	if h == nil {
		return &PatternError{Pattern: p.str, Reason: "nil handler"}
	}
	rt := &route{pattern: p.str, h: r.wrap(h), mount: mount}
	for _, s := range p.segs {
		if (s.kind == segWild || s.kind == segMulti) && s.s != "" {
			rt.names = append(rt.names, s.s)
		}
	}
	if err := r.t.add(p, rt); err != nil {
		return err
	}
	for g := r; g != nil; g = g.parent {
		g.sealed = true
	}
	return nil
}

// Handle is Register for patterns written in the program: it panics with
// Register's error, as net/http.ServeMux.Handle does.
func (r *Router) Handle(pattern string, h brisk.Handler) {
	if err := r.Register(pattern, h); err != nil {
		panic(err)
	}
}

// Group returns a Router for the subtree of r's paths under prefix, with
// middleware of its own: a pattern registered through it has prefix
// inserted before its path ("GET /users/{id}" through Group("/api") is
// "GET /api/users/{id}"), and its handler is wrapped in the group's
// middleware, inside that of the groups it was made from. prefix is ""
// (the same paths, for middleware only) or starts with "/" and does not
// end with "/"; it may hold "{name}" wildcards. A bad prefix panics. The
// group shares r's routes and replies: serve with the Router from New.
func (r *Router) Group(prefix string) *Router {
	if prefix != "" && (prefix[0] != '/' || strings.HasSuffix(prefix, "/")) {
		panic("router: Router.Group prefix " + prefix + " must start with \"/\" and not end with \"/\"")
	}
	return &Router{t: r.t, prefix: r.prefix + prefix, parent: r}
}

// withPrefix inserts the group's prefix before the path of pattern.
func (r *Router) withPrefix(pattern string) string {
	if r.prefix == "" {
		return pattern
	}
	i := strings.IndexByte(pattern, '/')
	if i < 0 {
		return pattern // a syntax error, reported as written
	}
	return pattern[:i] + r.prefix + pattern[i:]
}

// Serve routes the request c to the handler of its pattern, or answers it
// itself (see Router). It is a brisk.Handler:
// brisk.Server{Handler: r.Serve}.
func (r *Router) Serve(c *brisk.Ctx) { r.serve(c) }

// SetErrorHandler makes h write the Router's own replies (404, 405 and
// the 307 redirects, see Router), given ErrNotFound, ErrMethodNotAllowed
// or ErrRedirect, with the guarantees of brisk.ErrorHandler (the status
// is kept; Allow and Location are set after h). Nil, the default, means
// the Server's ErrorHandler. It applies to the Router from New and all
// its groups; set it before serving.
func (r *Router) SetErrorHandler(h brisk.ErrorHandler) { r.t.onError = h }
