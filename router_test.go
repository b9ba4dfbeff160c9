package brisk

import (
	"fmt"
	"strings"
	"testing"
)

// TestRouterDifferences pins the deliberate differences from
// net/http.ServeMux listed in Router's doc.
func TestRouterDifferences(t *testing.T) {
	r := NewRouter()
	for _, p := range []string{"/a/{x}/b", "/b", "/a/", "Example.COM/h", "[::1]/ip6", "/s/{v}", "/k/"} {
		r.Handle(p, briskMatchHandler(t, p))
	}
	for _, tc := range []struct {
		name, host, target string
		want               routeReply
	}{
		{"escaped_dot_segment", "x", "/a/%2e%2E/b", routeReply{status: 307, location: "/b"}},
		{"ends_in_dot", "x", "/k/.", routeReply{status: 307, location: "/k/"}},
		{"location_escaped_once", "x", "/a/../s/b%20c", routeReply{status: 307, location: "/s/b%20c"}},
		{"location_keeps_2F", "x", "/k%2Fz", routeReply{status: 404}},
		{"slash_redirect_keeps_2F", "x", "/s/a%2Fb/../a%2Fb", routeReply{status: 307, location: "/s/a%2Fb"}},
		{"host_case", "example.com", "/h", routeReply{status: 200, match: "Example.COM/h|"}},
		{"host_upper", "EXAMPLE.com:80", "/h", routeReply{status: 200, match: "Example.COM/h|"}},
		{"ipv6_host", "[::1]:8080", "/ip6", routeReply{status: 200, match: "[::1]/ip6|"}},
		{"asterisk", "x", "*", routeReply{status: 404}},
	} {
		method := "GET"
		if tc.target == "*" {
			method = "OPTIONS"
		}
		if got := serveRoute(r, &Ctx{}, method, tc.host, tc.target); got != tc.want {
			t.Errorf("%s: %s %s: got %+v, want %+v", tc.name, method, tc.target, got, tc.want)
		}
	}
	// Hosts that differ in case are one host, so these conflict.
	if err := r.Register("example.com/h", func(*Ctx) {}); err == nil {
		t.Error(`"example.com/h" after "Example.COM/h" accepted`)
	}
}

// TestRouterParams checks parameter values: decoded, multi, absent,
// and unchanged by a later escape-free value.
func TestRouterParams(t *testing.T) {
	r := NewRouter()
	var got []string
	r.Handle("/p/{a}/{b}/{rest...}", func(c *Ctx) {
		got = []string{string(c.Param("a")), string(c.Param("b")), string(c.Param("rest")), fmt.Sprint(c.Param("none") == nil)}
	})
	for _, tc := range []struct {
		target string
		want   string
	}{
		{"/p/1/2/3", "1 2 3 true"},
		{"/p/a%2Fb/%25/x%2Fy/z", "a/b % x/y/z true"},
		{"/p/caf%C3%A9/~/", "café ~  true"},
		{"/p/%00/b/%7f", "\x00 b \x7f true"},
	} {
		got = nil
		rep := serveRoute(r, &Ctx{}, "GET", "h", tc.target)
		if rep.status != 200 || strings.Join(got, " ") != tc.want {
			t.Errorf("%s: %+v params %q, want %q", tc.target, rep, got, tc.want)
		}
	}
}

// TestRouterMiddleware checks the order of router, group and subgroup
// middleware, that router middleware wraps the 404, and that group
// middleware sees the parameters.
func TestRouterMiddleware(t *testing.T) {
	var log []string
	mw := func(name string) Middleware {
		return func(next Handler) Handler {
			return func(c *Ctx) {
				log = append(log, name+">"+string(c.Param("id")))
				next(c)
				log = append(log, "<"+name+" "+c.Pattern())
			}
		}
	}
	r := NewRouter()
	api := r.Group("/api")
	api.Use(mw("api"))
	v1 := api.Group("/v1/{id}")
	v1.Use(mw("v1"))
	v1.Handle("GET /x", func(c *Ctx) { log = append(log, "h") })
	api.Handle("/plain", func(c *Ctx) { log = append(log, "plain") })
	r.Use(mw("root")) // after routes: allowed on the root
	for _, tc := range []struct{ target, want string }{
		{"/api/v1/7/x", "root> api>7 v1>7 h <v1 GET /api/v1/{id}/x <api GET /api/v1/{id}/x <root GET /api/v1/{id}/x"},
		{"/api/plain", "root> api> plain <api /api/plain <root /api/plain"},
		{"/nope", "root> <root "},
	} {
		log = nil
		serveRoute(r, &Ctx{}, "GET", "h", tc.target)
		if got := strings.Join(log, " "); got != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.target, got, tc.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Use on a group after Handle did not panic")
		}
	}()
	api.Use(mw("late"))
}

// TestRouterMount checks a Router mounted under a pattern with a
// wildcard: it routes the rest of the path, sees both parameters, and
// its redirects and 405 name the whole path.
func TestRouterMount(t *testing.T) {
	sub := NewRouter()
	sub.Handle("GET /users/{id}", briskMatchHandler(t, "GET /users/{id}"))
	sub.Handle("/dir/", func(*Ctx) {})
	sub.Handle("GET /tenant", func(c *Ctx) { c.Response.SetBodyString("tenant=" + string(c.Param("t"))) })
	r := NewRouter()
	r.Mount("/t/{t}", sub.Serve)
	r.Handle("/t/{t}/users/me", briskMatchHandler(t, "/t/{t}/users/me"))
	for _, tc := range []struct {
		method, target string
		want           routeReply
	}{
		{"GET", "/t/acme/users/42", routeReply{status: 200, match: "GET /users/{id}|id=42"}},
		{"GET", "/t/acme/tenant", routeReply{status: 200, match: "tenant=acme"}},
		{"GET", "/t/acme/users/me", routeReply{status: 200, match: "/t/{t}/users/me|t=acme"}},
		{"GET", "/t/acme/dir?q", routeReply{status: 307, location: "/t/acme/dir/?q"}},
		{"GET", "/t/acme", routeReply{status: 307, location: "/t/acme/"}},
		{"POST", "/t/acme/users/1", routeReply{status: 405, allow: "GET, HEAD"}},
		{"GET", "/t/acme/", routeReply{status: 404}},
		{"GET", "/t/acme/x/../users/1", routeReply{status: 307, location: "/t/acme/users/1"}},
	} {
		if got := serveRoute(r, &Ctx{}, tc.method, "h", tc.target); got != tc.want {
			t.Errorf("%s %s: got %+v, want %+v", tc.method, tc.target, got, tc.want)
		}
	}
	for _, bad := range []string{"/m/", "/{x...}"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Mount(%q) did not panic", bad)
				}
			}()
			r.Mount(bad, sub.Serve)
		}()
	}
}

var (
	userKey  = NewKey[*string]("user")
	countKey = NewKey[int]("count")
)

// TestKeyValues checks Set, Get, replacement, more keys than the inline
// storage, and that reset clears them.
func TestKeyValues(t *testing.T) {
	var c Ctx
	if _, ok := userKey.Get(&c); ok {
		t.Fatal("value before Set")
	}
	name := "ada"
	userKey.Set(&c, &name)
	countKey.Set(&c, 1)
	countKey.Set(&c, 2)
	keys := make([]*Key[int], 2*inlineValues)
	for i := range keys {
		keys[i] = NewKey[int](fmt.Sprint("k", i))
		keys[i].Set(&c, i)
	}
	if u, ok := userKey.Get(&c); !ok || *u != "ada" {
		t.Errorf("user = %v, %v", u, ok)
	}
	if n, ok := countKey.Get(&c); !ok || n != 2 {
		t.Errorf("count = %v, %v", n, ok)
	}
	for i, k := range keys {
		if v, ok := k.Get(&c); !ok || v != i {
			t.Errorf("%v = %v, %v", k, v, ok)
		}
	}
	if len(c.route.values) != 2+len(keys) {
		t.Errorf("%d values stored", len(c.route.values))
	}
	c.route.reset()
	if _, ok := countKey.Get(&c); ok || cap(c.route.values) == 0 {
		t.Errorf("after reset: value kept or storage dropped")
	}
	if userKey.String() != "user" {
		t.Error(userKey.String())
	}
}

// TestRouterServer serves a Router on a real connection: a parameter
// route, a 405 and redirects (an absolute-form target with no path
// among them), keep-alive kept after each, and a Key value
// set by a request does not reach the next.
func TestRouterServer(t *testing.T) {
	seen := NewKey[string]("seen")
	r := NewRouter()
	r.Handle("GET /hello/{name}", func(c *Ctx) {
		if v, ok := seen.Get(c); ok {
			c.Response.SetBodyString("stale " + v)
			return
		}
		seen.Set(c, "x")
		c.Response.SetBodyString("Hello, " + string(c.Param("name")) + "!")
	})
	r.Handle("/dir/", func(c *Ctx) {})
	ts := startServer(t, "inmemory", &Server{Handler: r.Serve})
	cl := ts.connect()
	for i := range 2 {
		resp, body := cl.roundTrip("GET /hello/w%C3%B6rld HTTP/1.1\r\nHost: h\r\n\r\n")
		if resp.StatusCode != 200 || body != "Hello, wörld!" {
			t.Fatalf("request %d: %d %q", i, resp.StatusCode, body)
		}
	}
	resp, body := cl.roundTrip("DELETE /hello/x HTTP/1.1\r\nHost: h\r\n\r\n")
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD" || body != "Method Not Allowed\n" || resp.Close {
		t.Errorf("405: %d Allow %q body %q close %v", resp.StatusCode, resp.Header.Get("Allow"), body, resp.Close)
	}
	resp, body = cl.roundTrip("GET /dir?a=1 HTTP/1.1\r\nHost: h\r\n\r\n")
	if resp.StatusCode != 307 || resp.Header.Get("Location") != "/dir/?a=1" || body != "Temporary Redirect\n" {
		t.Errorf("redirect: %d Location %q body %q", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	resp, body = cl.roundTrip("GET http://h?a=1 HTTP/1.1\r\nHost: h\r\n\r\n")
	if resp.StatusCode != 307 || resp.Header.Get("Location") != "/?a=1" {
		t.Errorf("absolute-form, empty path: %d Location %q body %q", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	resp, body = cl.roundTrip("GET /none HTTP/1.1\r\nHost: h\r\n\r\n")
	if resp.StatusCode != 404 || body != "Not Found\n" {
		t.Errorf("404: %d %q", resp.StatusCode, body)
	}
}

// TestAppendEscapedPath checks the table against the rule it states.
func TestAppendEscapedPath(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		keep := 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || strings.IndexByte("-_.~$&+,/:;=@%", b) >= 0
		want := string(b)
		if !keep {
			want = fmt.Sprintf("%%%02X", b)
		}
		if got := string(appendEscapedPath(nil, []byte{b})); got != want {
			t.Errorf("%#x: %q, want %q", b, got, want)
		}
	}
}

// TestRouterManyParams: more wildcards than the inline storage holds.
func TestRouterManyParams(t *testing.T) {
	r := NewRouter()
	var got string
	r.Handle("/{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i...}", func(c *Ctx) {
		for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"} {
			got += string(c.Param(n)) + ","
		}
	})
	if rep := serveRoute(r, &Ctx{}, "GET", "h", "/1/2/3/4/5/6/%2F/8/9/10"); rep.status != 200 || got != "1,2,3,4,5,6,/,8,9/10," {
		t.Errorf("%+v %q", rep, got)
	}
}
