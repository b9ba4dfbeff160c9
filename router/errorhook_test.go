package router

import (
	"bufio"
	"context"
	"errors"
	"net"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// jsonHook answers {"status":N,"error":"why"} with the error's own
// message (never request bytes).
func jsonHook(tag string) brisk.ErrorHandler {
	return func(c *brisk.Ctx, code int, err error) {
		c.Response.Header.Set("Content-Type", "application/json")
		c.Response.Header.Set("X-Hook", tag)
		c.Response.WriteString(`{"error":"` + err.Error() + `"}`)
	}
}

// serveWith serves h on an in-memory connection of a Server with the
// ErrorHandler eh.
func serveWith(t *testing.T, h brisk.Handler, eh brisk.ErrorHandler) (net.Conn, *bufio.Reader) {
	srv := &brisk.Server{Handler: h, ErrorHandler: eh}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	nc, err := ln.Dial()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		nc.Close()
		srv.Shutdown(context.Background())
	})
	return nc, bufio.NewReader(nc)
}

// TestRouterErrorHandler: the Router's 404, 405 and redirects go through
// its own ErrorHandler, else the Server's, with the error naming the
// reply, the status kept, Allow and Location set after the hook, and no
// body to HEAD.
func TestRouterErrorHandler(t *testing.T) {
	for _, own := range []bool{true, false} {
		r := New()
		r.Handle("GET /users/{id}", func(c *brisk.Ctx) {})
		r.Handle("/dir/", func(c *brisk.Ctx) {})
		serverHook := jsonHook("server")
		tag := "server"
		if own {
			r.SetErrorHandler(jsonHook("router"))
			tag = "router"
		}
		nc, br := serveWith(t, r.Serve, serverHook)
		for _, tc := range []struct {
			req    string
			status int
			err    error
			field  string
		}{
			{"GET /nope HTTP/1.1\r\nHost: h\r\n\r\n", 404, ErrNotFound, ""},
			{"DELETE /users/1 HTTP/1.1\r\nHost: h\r\n\r\n", 405, ErrMethodNotAllowed, "Allow: GET, HEAD"},
			{"GET /dir HTTP/1.1\r\nHost: h\r\n\r\n", 307, ErrRedirect, "Location: /dir/"},
			{"GET /users/../dir/ HTTP/1.1\r\nHost: h\r\n\r\n", 307, ErrRedirect, "Location: /dir/"},
			{"OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n", 404, ErrNotFound, ""},
			{"HEAD /nope HTTP/1.1\r\nHost: h\r\n\r\n", 404, ErrNotFound, ""},
		} {
			resp, body := roundTrip(t, nc, br, tc.req)
			want := `{"error":"` + tc.err.Error() + `"}`
			if resp.Request.Method == "HEAD" {
				if body != "" || resp.ContentLength != int64(len(want)) {
					t.Errorf("%q: HEAD body %q, Content-Length %d", tc.req, body, resp.ContentLength)
				}
				want = ""
			}
			if resp.StatusCode != tc.status || body != want || resp.Header.Get("X-Hook") != tag {
				t.Errorf("%q: %d %q (hook %q), want %d %q (%s)", tc.req, resp.StatusCode, body, resp.Header.Get("X-Hook"), tc.status, want, tag)
			}
			if tc.field != "" {
				name, value, _ := cut(tc.field)
				if got := resp.Header.Get(name); got != value {
					t.Errorf("%q: %s %q, want %q", tc.req, name, got, value)
				}
			}
		}
	}
}

func cut(field string) (string, string, bool) {
	for i := 0; i+1 < len(field); i++ {
		if field[i] == ':' && field[i+1] == ' ' {
			return field[:i], field[i+2:], true
		}
	}
	return field, "", false
}

// TestRouterMountTrailingSlash: Mount accepts the ServeMux habit of a
// subtree pattern ending in "/", the same mount as without it, and "/"
// mounts everything.
func TestRouterMountTrailingSlash(t *testing.T) {
	debug := New()
	debug.Handle("GET /pprof/", func(c *brisk.Ctx) { c.Response.SetBodyString("pprof " + c.Pattern()) })
	r := New()
	r.Mount("/debug/", debug.Serve)
	for _, tc := range []struct {
		target string
		want   routeReply
	}{
		{"/debug/pprof/", routeReply{status: 200, match: "pprof GET /pprof/"}},
		{"/debug/pprof", routeReply{status: 307, location: "/debug/pprof/"}},
		{"/debug", routeReply{status: 307, location: "/debug/"}},
		{"/other", routeReply{status: 404}},
	} {
		if got := serveRoute(r, &brisk.Ctx{}, "GET", "h", tc.target); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.target, got, tc.want)
		}
	}
	if err := r.Register("/debug/", func(*brisk.Ctx) {}); !errors.Is(err, ErrPatternConflict) {
		t.Errorf("Register(/debug/) after Mount(/debug/): %v, want a conflict", err)
	}
	all := New()
	all.Mount("/", debug.Serve)
	if got := serveRoute(all, &brisk.Ctx{}, "GET", "h", "/pprof/"); got.status != 200 {
		t.Errorf("Mount(/): %+v", got)
	}
}
