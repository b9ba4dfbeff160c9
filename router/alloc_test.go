//go:build !race

package router

import (
	"testing"

	"github.com/brisk-http/brisk"
)

// TestRouterAllocs: routing a static hit, a hit with three parameters,
// a 404 and a 405 does not allocate, over the GitHub route table. Each
// request goes through a Server on an in-memory connection, which
// prepares and clears the Ctx as it does for every request (the server's
// own part allocates nothing either).
func TestRouterAllocs(t *testing.T) {
	r := New()
	var sink int
	for _, p := range readRouteFile(t, "github.txt") {
		r.Handle(p, func(c *brisk.Ctx) {
			sink += len(c.Param("owner")) + len(c.Param("repo")) + len(c.Param("sha"))
		})
	}
	n := 0
	userKey := brisk.NewKey[*int]("n")
	r.Use(func(next brisk.Handler) brisk.Handler {
		return func(c *brisk.Ctx) { userKey.Set(c, &n); next(c) }
	})
	buf := make([]byte, 4096)
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
		nc := serveConn(t, r.Serve)
		req := []byte(tc.method + " " + tc.target + " HTTP/1.1\r\nHost: api.github.com\r\n\r\n")
		status := 0
		run := func() { status = exchange(nc, req, buf) }
		run()
		if status != tc.status {
			t.Fatalf("%s: status %d, want %d", tc.name, status, tc.status)
		}
		if a := testing.AllocsPerRun(200, run); a != 0 {
			t.Errorf("%s: %v allocations per request, want 0", tc.name, a)
		}
	}
	if sink == 0 {
		t.Error("parameters not read")
	}
}
