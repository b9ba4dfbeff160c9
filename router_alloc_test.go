//go:build !race

package brisk

import "testing"

// TestRouterAllocs: routing a static hit, a hit with three parameters,
// a 404 and a 405 does not allocate, over the GitHub route table.
func TestRouterAllocs(t *testing.T) {
	r := NewRouter()
	var sink int
	for _, p := range readRouteFile(t, "github.txt") {
		r.Handle(p, func(c *Ctx) {
			sink += len(c.Param("owner")) + len(c.Param("repo")) + len(c.Param("sha"))
		})
	}
	n := 0
	userKey := NewKey[*int]("n")
	r.Use(func(next Handler) Handler {
		return func(c *Ctx) { userKey.Set(c, &n); next(c) }
	})
	for _, tc := range []struct {
		name, method, target string
		status               int
	}{
		{"static", "GET", "/user/repos", 200},
		{"three_params", "GET", "/repos/julienschmidt/httprouter/git/commits/7d2f4d1", 200},
		{"escaped_param", "GET", "/repos/a%2Fb/httprouter/stargazers", 200},
		{"not_found", "GET", "/nope/x", 404},
		{"method_not_allowed", "PATCH", "/user/repos", 405},
		{"redirect", "GET", "/user/x/../repos?page=2", 307},
	} {
		var c Ctx
		c.Request.SetMethod(tc.method)
		c.Request.SetTarget(tc.target)
		c.Request.SetHost("api.github.com")
		run := func() {
			c.route.reset()
			c.Response.Reset()
			r.Serve(&c)
		}
		run()
		if c.Response.StatusCode() != tc.status {
			t.Fatalf("%s: status %d, want %d", tc.name, c.Response.StatusCode(), tc.status)
		}
		if a := testing.AllocsPerRun(200, run); a != 0 {
			t.Errorf("%s: %v allocations per request, want 0", tc.name, a)
		}
	}
	if sink == 0 {
		t.Error("parameters not read")
	}
}
