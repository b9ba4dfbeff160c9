package router_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/router"
)

// serveOnce serves h over an in-memory listener, sends each request (a
// "METHOD target" line) on one connection and prints the replies: status,
// then the body or the Location and Allow fields.
func serveOnce(h brisk.Handler, requests ...string) {
	srv := &brisk.Server{Handler: h}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	conn, _ := ln.Dial()
	defer conn.Close()
	br := bufio.NewReader(conn)
	for _, rq := range requests {
		method, _, _ := strings.Cut(rq, " ")
		io.WriteString(conn, rq+" HTTP/1.1\r\nHost: example.com\r\n\r\n")
		resp, err := http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		switch {
		case resp.Header.Get("Location") != "":
			fmt.Printf("%s: %d Location: %s\n", rq, resp.StatusCode, resp.Header.Get("Location"))
		case resp.Header.Get("Allow") != "":
			fmt.Printf("%s: %d Allow: %s\n", rq, resp.StatusCode, resp.Header.Get("Allow"))
		default:
			fmt.Println(strings.TrimSpace(fmt.Sprintf("%s: %d %s", rq, resp.StatusCode, body)))
		}
	}
}

// Example serves a Router: a route with a wildcard, and the Router's own
// 404 and 405.
func Example() {
	r := router.New()
	r.Handle("GET /users/{id}", func(c *brisk.Ctx) {
		c.Response.SetBodyString("user " + string(c.Param("id")))
	})
	serveOnce(r.Serve, "GET /users/42", "DELETE /users/42", "GET /nowhere")
	// Output:
	// GET /users/42: 200 user 42
	// DELETE /users/42: 405 Allow: GET, HEAD
	// GET /nowhere: 404 Not Found
}

// ExampleRouter routes with net/http.ServeMux's patterns: the most
// specific pattern wins, and the Router answers 404, 405 and redirects.
func ExampleRouter() {
	r := router.New()
	r.Handle("GET /users/{id}", func(c *brisk.Ctx) {
		fmt.Fprintf(&c.Response, "user %s", c.Param("id"))
	})
	r.Handle("GET /users/me", func(c *brisk.Ctx) { c.Response.SetBodyString("me") })
	r.Handle("POST /users/", func(c *brisk.Ctx) { c.Response.SetBodyString("created") })
	r.Handle("/files/{path...}", func(c *brisk.Ctx) {
		fmt.Fprintf(&c.Response, "%s file %q", c.Pattern(), c.Param("path"))
	})
	serveOnce(r.Serve,
		"GET /users/42",
		"GET /users/me",
		"HEAD /users/42",
		"DELETE /users/42",
		"POST /users/",
		"GET /files/a/b%2Fc.txt",
		"GET /users/7/../me?x=1",
		"GET /nowhere",
	)
	// Output:
	// GET /users/42: 200 user 42
	// GET /users/me: 200 me
	// HEAD /users/42: 200
	// DELETE /users/42: 405 Allow: GET, HEAD, POST
	// POST /users/: 200 created
	// GET /files/a/b%2Fc.txt: 200 /files/{path...} file "a/b/c.txt"
	// GET /users/7/../me?x=1: 307 Location: /users/me?x=1
	// GET /nowhere: 404 Not Found
}

// ExampleRouter_Register shows a conflict refused at registration:
// both patterns match "/a/b" and neither is more specific.
func ExampleRouter_Register() {
	r := router.New()
	r.Handle("/a/{x}", func(*brisk.Ctx) {})
	err := r.Register("/{y}/b", func(*brisk.Ctx) {})
	fmt.Println(errors.Is(err, router.ErrPatternConflict))
	fmt.Println(err)
	// Output:
	// true
	// router: pattern "/{y}/b" conflicts with "/a/{x}": both match some paths, like "/a/b", but neither is more specific
}

// requestIDKey is the typed key of a per-request value.
var requestIDKey = brisk.NewKey[*string]("request-id")

// ExampleRouter_Group gives the /api subtree its own middleware, which
// stores a per-request value for the handlers; the Router's own
// middleware wraps everything, its 404 included.
func ExampleRouter_Group() {
	r := router.New()
	r.Use(func(next brisk.Handler) brisk.Handler {
		return func(c *brisk.Ctx) {
			next(c)
			c.Response.Header.Set("X-Served-By", "brisk")
		}
	})
	api := r.Group("/api")
	api.Use(func(next brisk.Handler) brisk.Handler {
		return func(c *brisk.Ctx) {
			id := "req-1"
			requestIDKey.Set(c, &id)
			next(c)
		}
	})
	api.Handle("GET /items/{id}", func(c *brisk.Ctx) {
		rid, _ := requestIDKey.Get(c)
		fmt.Fprintf(&c.Response, "item %s (%s, %s)", c.Param("id"), *rid, c.Pattern())
	})
	serveOnce(r.Serve, "GET /api/items/9", "GET /items/9")
	// Output:
	// GET /api/items/9: 200 item 9 (req-1, GET /api/items/{id})
	// GET /items/9: 404 Not Found
}

// ExampleRouter_Mount mounts a Router built on its own under a pattern
// with a wildcard: it routes the rest of the path and sees both
// parameters.
func ExampleRouter_Mount() {
	users := router.New()
	users.Handle("GET /{id}", func(c *brisk.Ctx) {
		fmt.Fprintf(&c.Response, "tenant %s user %s", c.Param("tenant"), c.Param("id"))
	})
	r := router.New()
	r.Mount("/t/{tenant}/users", users.Serve)
	serveOnce(r.Serve, "GET /t/acme/users/7", "GET /t/acme/users")
	// Output:
	// GET /t/acme/users/7: 200 tenant acme user 7
	// GET /t/acme/users: 307 Location: /t/acme/users/
}

// ExampleRouter_Use wraps everything the Router answers, its own 404
// included, in a middleware that times the request and names the route
// (Ctx.Pattern is set once next has routed it).
func ExampleRouter_Use() {
	r := router.New()
	r.Use(func(next brisk.Handler) brisk.Handler {
		return func(c *brisk.Ctx) {
			next(c)
			route := c.Pattern()
			if route == "" {
				route = "none"
			}
			c.Response.Header.Set("X-Route", route)
			fmt.Printf("route %s: %d\n", route, c.Response.StatusCode())
		}
	})
	r.Handle("GET /health", func(c *brisk.Ctx) { c.Response.SetBodyString("ok") })
	serveOnce(r.Serve, "GET /health", "GET /nowhere")
	// Output:
	// route GET /health: 200
	// GET /health: 200 ok
	// route none: 404
	// GET /nowhere: 404 Not Found
}

// ExampleRouter_Mount_debug mounts net/http's pprof-style mux the way
// ServeMux users write a subtree, with a trailing "/".
func ExampleRouter_Mount_debug() {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/vars", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "vars") })
	r := router.New()
	r.Mount("/debug/", brisk.FromHTTP(mux))
	serveOnce(r.Serve, "GET /debug/vars", "GET /debug")
	// Output:
	// GET /debug/vars: 200 vars
	// GET /debug: 307 Location: /debug/
}

// ExampleRouter_SetErrorHandler makes the Router's own replies JSON; the
// Allow field is still set.
func ExampleRouter_SetErrorHandler() {
	r := router.New()
	r.SetErrorHandler(func(c *brisk.Ctx, code int, err error) {
		c.Response.Header.Set("Content-Type", "application/json")
		fmt.Fprintf(&c.Response, `{"status":%d,"error":%q}`, code, err.Error())
	})
	r.Handle("GET /users/{id}", func(c *brisk.Ctx) {})
	serveOnce(r.Serve, "GET /nowhere", "PUT /users/1")
	// Output:
	// GET /nowhere: 404 {"status":404,"error":"router: no route matches the request"}
	// PUT /users/1: 405 Allow: GET, HEAD
}
