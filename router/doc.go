// Package router routes a brisk server's requests with net/http.ServeMux's
// patterns (Go 1.22 and later): "[METHOD ][HOST]/path/{name}/{rest...}"
// and "{$}", the most specific pattern wins, and a pattern that conflicts
// with another is refused when it is registered. A Router answers 404,
// 405 with Allow, and the trailing-slash and path-cleaning redirects
// itself, and routes at no allocation per request:
//
//	r := router.New()
//	r.Handle("GET /users/{id}", func(c *brisk.Ctx) {
//		c.Response.SetBodyString("user " + string(c.Param("id")))
//	})
//	srv := &brisk.Server{Handler: r.Serve}
//
// Use, Group and Mount add middleware (brisk.Middleware), subtrees with
// their own middleware, and handlers (another Router, or a net/http one
// through brisk.FromHTTP) that route the rest of the path.
//
// The package uses only brisk's exported API: a Router hands the handler
// the pattern with brisk.Ctx.SetRoute (read back with Ctx.Pattern) and
// its wildcards' values with Ctx.SetPathParams and Ctx.SetParam (read
// back with Ctx.Param), the seam any router of one's own can use too.
package router
