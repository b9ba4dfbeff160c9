package router

import (
	"fmt"
	"testing"

	"github.com/brisk-http/brisk"
)

// withoutStaticIndex empties the static indexes of r's table, so that
// every request is matched by the trees alone.
func withoutStaticIndex(r *Router) {
	r.t.nohost.static = staticIndex{}
	for _, h := range r.t.hosts {
		h.static = staticIndex{}
	}
}

// TestRouterStaticIndex: over patterns where static and wildcard
// patterns, methods, hosts and "{$}" overlap, a request gets the same
// reply (status, pattern, Allow, Location) with the static index as
// from the trees alone, and the index holds the patterns without
// wildcards and only them.
func TestRouterStaticIndex(t *testing.T) {
	patterns := []string{
		"GET /a/b", "GET /a/{x}", "POST /a/b", "/c/c", "GET /{y}/b/c", "GET /a/b/c",
		"/", "/{$}", "POST /s/", "POST /s/{$}", "PUT /t/{rest...}", "PUT /t/x",
		"example.com/a/{x}", "example.com/e", "PUT /%61%2Fb", "LONGMETHOD /a/b",
		"HEAD /h", "GET /h/{x}",
	}
	requests := []struct{ method, host, target string }{
		{"GET", "", "/a/b"}, {"HEAD", "", "/a/b"}, {"POST", "", "/a/b"},
		{"DELETE", "", "/a/b"}, {"GET", "", "/a/z"}, {"GET", "", "/c/c"},
		{"PATCH", "", "/c/c"}, {"GET", "", "/a/b/c"}, {"GET", "", "/z/b/c"}, {"GET", "", "/"},
		{"GET", "", "/x"}, {"POST", "", "/s/"}, {"POST", "", "/s"},
		{"POST", "", "/s/q"}, {"PUT", "", "/t/x"}, {"PUT", "", "/t/y"}, {"GET", "", "/t/x"},
		{"GET", "example.com", "/a/b"}, {"GET", "EXAMPLE.com:8080", "/e"},
		{"GET", "other.com", "/e"}, {"PUT", "", "/a%2Fb"}, {"PUT", "", "/a/b"},
		{"LONGMETHOD", "", "/a/b"}, {"LONGMETHOX", "", "/a/b"}, {"HEAD", "", "/h"},
		{"GET", "", "/h"}, {"GET", "", "/a/./b"}, {"GET", "", "/a/b?q=1"},
	}
	build := func() *Router {
		r := New()
		for _, p := range patterns {
			r.Handle(p, func(c *brisk.Ctx) { c.Response.SetBodyString(c.Pattern()) })
		}
		return r
	}
	indexed, trees := build(), build()
	withoutStaticIndex(trees)
	var c brisk.Ctx
	for _, rq := range requests {
		got := serveRoute(indexed, &c, rq.method, rq.host, rq.target)
		want := serveRoute(trees, &c, rq.method, rq.host, rq.target)
		if got != want {
			t.Errorf("%s %s%s: %+v with the index, %+v from the trees", rq.method, rq.host, rq.target, got, want)
		}
	}

	held := map[string]bool{}
	for _, h := range append([]*hostRoutes{&indexed.t.nohost}, indexed.t.hosts...) {
		for _, e := range h.static.slots {
			if e.r != nil {
				held[e.r.pattern] = true
			}
		}
	}
	want := []string{"GET /a/b", "POST /a/b", "/c/c", "GET /a/b/c", "/{$}", "POST /s/{$}", "PUT /t/x", "example.com/e", "PUT /%61%2Fb", "LONGMETHOD /a/b", "HEAD /h"}
	if len(held) != len(want) {
		t.Errorf("index holds %v, want %v", held, want)
	}
	for _, p := range want {
		if !held[p] {
			t.Errorf("index lacks %q (holds %v)", p, held)
		}
	}
}

// TestStaticIndexGrows: an index of many routes, grown past several
// sizes, finds each of them and nothing else.
func TestStaticIndexGrows(t *testing.T) {
	var x staticIndex
	rs := make([]route, 1000)
	for i := range rs {
		rs[i].pattern = fmt.Sprintf("/r/%d", i)
		x.add("GET", rs[i].pattern, &rs[i])
	}
	if len(x.slots) != 2048 {
		t.Errorf("%d slots for 1000 routes, want 2048", len(x.slots))
	}
	for i := range rs {
		if got := x.find([]byte("GET"), []byte(rs[i].pattern)); got != &rs[i] {
			t.Fatalf("find %q: %v", rs[i].pattern, got)
		}
		if got := x.find([]byte("POST"), []byte(rs[i].pattern)); got != nil {
			t.Fatalf("find POST %q: %v", rs[i].pattern, got.pattern)
		}
	}
	for _, p := range []string{"", "/", "/r", "/r/", "/r/1000", "/r/01", "/r/1/"} {
		if got := x.find([]byte("GET"), []byte(p)); got != nil {
			t.Errorf("find %q: %q", p, got.pattern)
		}
	}
}
