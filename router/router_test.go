package router

import (
	"bufio"
	"fmt"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestRouterDifferences pins the deliberate differences from
// net/http.ServeMux listed in Router's doc.
func TestRouterDifferences(t *testing.T) {
	r := New()
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
		if got := serveRoute(r, &brisk.Ctx{}, method, tc.host, tc.target); got != tc.want {
			t.Errorf("%s: %s %s: got %+v, want %+v", tc.name, method, tc.target, got, tc.want)
		}
	}
	// Hosts that differ in case are one host, so these conflict.
	if err := r.Register("example.com/h", func(*brisk.Ctx) {}); err == nil {
		t.Error(`"example.com/h" after "Example.COM/h" accepted`)
	}
}

// TestRouterParams checks parameter values: decoded, multi, absent,
// and unchanged by a later escape-free value.
func TestRouterParams(t *testing.T) {
	r := New()
	var got []string
	r.Handle("/p/{a}/{b}/{rest...}", func(c *brisk.Ctx) {
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
		rep := serveRoute(r, &brisk.Ctx{}, "GET", "h", tc.target)
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
	mw := func(name string) brisk.Middleware {
		return func(next brisk.Handler) brisk.Handler {
			return func(c *brisk.Ctx) {
				log = append(log, name+">"+string(c.Param("id")))
				next(c)
				log = append(log, "<"+name+" "+c.Pattern())
			}
		}
	}
	r := New()
	api := r.Group("/api")
	api.Use(mw("api"))
	v1 := api.Group("/v1/{id}")
	v1.Use(mw("v1"))
	v1.Handle("GET /x", func(c *brisk.Ctx) { log = append(log, "h") })
	api.Handle("/plain", func(c *brisk.Ctx) { log = append(log, "plain") })
	r.Use(mw("root")) // after routes: allowed on the root
	for _, tc := range []struct{ target, want string }{
		{"/api/v1/7/x", "root> api>7 v1>7 h <v1 GET /api/v1/{id}/x <api GET /api/v1/{id}/x <root GET /api/v1/{id}/x"},
		{"/api/plain", "root> api> plain <api /api/plain <root /api/plain"},
		{"/nope", "root> <root "},
	} {
		log = nil
		serveRoute(r, &brisk.Ctx{}, "GET", "h", tc.target)
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
	sub := New()
	sub.Handle("GET /users/{id}", briskMatchHandler(t, "GET /users/{id}"))
	sub.Handle("/dir/", func(*brisk.Ctx) {})
	sub.Handle("GET /tenant", func(c *brisk.Ctx) { c.Response.SetBodyString("tenant=" + string(c.Param("t"))) })
	r := New()
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
		{"GET", "/t/a%20b/users/4%2F2", routeReply{status: 200, match: "GET /users/{id}|id=4/2"}},
		{"GET", "/t/a%20b/tenant", routeReply{status: 200, match: "tenant=a b"}},
	} {
		if got := serveRoute(r, &brisk.Ctx{}, tc.method, "h", tc.target); got != tc.want {
			t.Errorf("%s %s: got %+v, want %+v", tc.method, tc.target, got, tc.want)
		}
	}
	for _, bad := range []string{"/m//", "/{x...}", "/{$}"} {
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

// TestRouterMountNested mounts a Router in a mounted Router, on a real
// connection (whose decoded paths sit in a buffer reused across
// requests): the innermost routes the rest of the rest, sees the
// wildcards of the three patterns, redirects with the whole path; a 404
// inside has no pattern; and after a mounted handler returns, the outer
// router's handler no longer counts as mounted.
func TestRouterMountNested(t *testing.T) {
	inner := New()
	inner.Handle("GET /c/{z}", func(c *brisk.Ctx) {
		fmt.Fprintf(&c.Response, "%s x=%s y=%s z=%s", c.Pattern(), c.Param("x"), c.Param("y"), c.Param("z"))
	})
	inner.Handle("/d/", func(*brisk.Ctx) {})
	mid := New()
	mid.Mount("/b/{y}", inner.Serve)
	r := New()
	r.Mount("/a/{x}", func(c *brisk.Ctx) {
		mid.Serve(c)
		c.Response.Header.Set("X-After", c.Pattern())
	})
	r.Use(func(next brisk.Handler) brisk.Handler {
		return func(c *brisk.Ctx) {
			next(c)
			if len(c.Param(mountParam)) > 0 {
				c.Response.Header.Set("X-Still-Mounted", "1")
			}
		}
	})
	nc := serveConn(t, r.Serve)
	br := bufio.NewReader(nc)
	for _, tc := range []struct{ target, want string }{
		{"/a/1/b/2/c/3", "200 GET /c/{z} x=1 y=2 z=3 after=GET /c/{z}"},
		{"/a/%31%20/b/%2F/c/3%3F", "200 GET /c/{z} x=1  y=/ z=3? after=GET /c/{z}"},
		{"/a/1/b/2/c/x/../3?q", "307 /a/1/b/2/c/3?q after="},
		{"/a/1/b/2/d", "307 /a/1/b/2/d/ after="},
		{"/a/1/b/2/e", "404  after="},
	} {
		resp, body := roundTrip(t, nc, br, "GET "+tc.target+" HTTP/1.1\r\nHost: h\r\n\r\n")
		got := fmt.Sprintf("%d %s after=%s", resp.StatusCode, body, resp.Header.Get("X-After"))
		if resp.StatusCode != 200 {
			got = fmt.Sprintf("%d %s after=%s", resp.StatusCode, resp.Header.Get("Location"), resp.Header.Get("X-After"))
		}
		if got != tc.want || resp.Header.Get("X-Still-Mounted") != "" {
			t.Errorf("%s: %q (still mounted %q), want %q", tc.target, got, resp.Header.Get("X-Still-Mounted"), tc.want)
		}
	}
}

// TestRouterServer serves a Router on a real connection: a parameter
// route, a 405 and redirects (an absolute-form target with no path
// among them), keep-alive kept after each, and a brisk.Key value
// set by a request does not reach the next.
func TestRouterServer(t *testing.T) {
	seen := brisk.NewKey[string]("seen")
	r := New()
	r.Handle("GET /hello/{name}", func(c *brisk.Ctx) {
		if v, ok := seen.Get(c); ok {
			c.Response.SetBodyString("stale " + v)
			return
		}
		seen.Set(c, "x")
		c.Response.SetBodyString("Hello, " + string(c.Param("name")) + "!")
	})
	r.Handle("/dir/", func(c *brisk.Ctx) {})
	nc := serveConn(t, r.Serve)
	br := bufio.NewReader(nc)
	for i := range 2 {
		resp, body := roundTrip(t, nc, br, "GET /hello/w%C3%B6rld HTTP/1.1\r\nHost: h\r\n\r\n")
		if resp.StatusCode != 200 || body != "Hello, wörld!" {
			t.Fatalf("request %d: %d %q", i, resp.StatusCode, body)
		}
	}
	resp, body := roundTrip(t, nc, br, "DELETE /hello/x HTTP/1.1\r\nHost: h\r\n\r\n")
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD" || body != "Method Not Allowed\n" || resp.Close {
		t.Errorf("405: %d Allow %q body %q close %v", resp.StatusCode, resp.Header.Get("Allow"), body, resp.Close)
	}
	resp, body = roundTrip(t, nc, br, "GET /dir?a=1 HTTP/1.1\r\nHost: h\r\n\r\n")
	if resp.StatusCode != 307 || resp.Header.Get("Location") != "/dir/?a=1" || body != "Temporary Redirect\n" {
		t.Errorf("redirect: %d Location %q body %q", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	resp, body = roundTrip(t, nc, br, "GET http://h?a=1 HTTP/1.1\r\nHost: h\r\n\r\n")
	if resp.StatusCode != 307 || resp.Header.Get("Location") != "/?a=1" {
		t.Errorf("absolute-form, empty path: %d Location %q body %q", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	resp, body = roundTrip(t, nc, br, "GET /none HTTP/1.1\r\nHost: h\r\n\r\n")
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

// TestLiteralFormIsPathForm: a pattern's literal segment is put in the
// form brisk.DecodePath gives a request's path, byte by byte (keepEncoded
// and unescapeAll are the router's own copies of that rule).
func TestLiteralFormIsPathForm(t *testing.T) {
	for c := range 256 {
		if c == '.' {
			continue // "/%2E" is a dot-segment: DecodePath drops it
		}
		for _, seg := range []string{fmt.Sprintf("%%%02X", c), fmt.Sprintf("%%%02x", c), fmt.Sprintf("a%%%02Xb", c)} {
			want, err := brisk.DecodePath(nil, []byte("/"+seg))
			if err != nil {
				t.Fatalf("DecodePath(%q): %v", "/"+seg, err)
			}
			if got := "/" + literalForm(seg); got != string(want) {
				t.Errorf("%q: literalForm %q, DecodePath %q", seg, got, want)
			}
		}
	}
}

// TestRouterManyParams: more wildcards than the inline storage holds.
func TestRouterManyParams(t *testing.T) {
	r := New()
	var got string
	r.Handle("/{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i...}", func(c *brisk.Ctx) {
		for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"} {
			got += string(c.Param(n)) + ","
		}
	})
	if rep := serveRoute(r, &brisk.Ctx{}, "GET", "h", "/1/2/3/4/5/6/%2F/8/9/10"); rep.status != 200 || got != "1,2,3,4,5,6,/,8,9/10," {
		t.Errorf("%+v %q", rep, got)
	}
	// More than the match holds on the stack (inlineParams), on a real
	// connection, plain and escaped.
	var pat, want strings.Builder
	pat.WriteString("/many")
	for i := range inlineParams + 4 {
		fmt.Fprintf(&pat, "/{w%d}", i)
		fmt.Fprintf(&want, "%d,", i)
	}
	r.Handle(pat.String(), func(c *brisk.Ctx) {
		for i := range inlineParams + 4 {
			fmt.Fprintf(&c.Response, "%s,", c.Param(fmt.Sprint("w", i)))
		}
	})
	nc := serveConn(t, r.Serve)
	br := bufio.NewReader(nc)
	for _, target := range []string{
		strings.ReplaceAll(strings.TrimSuffix(want.String(), ","), ",", "/"),
		strings.ReplaceAll(strings.TrimSuffix(want.String(), ","), ",", "/") + "%2F",
	} {
		resp, body := roundTrip(t, nc, br, "GET /many/"+target+" HTTP/1.1\r\nHost: h\r\n\r\n")
		w := want.String()
		if strings.HasSuffix(target, "%2F") {
			w = strings.TrimSuffix(w, ",") + "/,"
		}
		if resp.StatusCode != 200 || body != w {
			t.Errorf("%s: %d %q, want %q", target, resp.StatusCode, body, w)
		}
	}
}
