package middleware_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/middleware"
	"github.com/brisk-http/brisk/router"
)

// serve serves srv over an in-memory listener, sends each raw request
// head (CRLFs added) on one connection and prints the status line, the
// fields named in show and the body of each response.
func serve(srv *brisk.Server, show []string, requests ...string) {
	if srv.Logger == nil {
		srv.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	conn, _ := ln.Dial()
	defer conn.Close()
	br := bufio.NewReader(conn)
	for _, rq := range requests {
		io.WriteString(conn, strings.ReplaceAll(rq, "\n", "\r\n")+"\r\n\r\n")
		method, _, _ := strings.Cut(rq, " ")
		resp, err := http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		fmt.Print(resp.Status)
		for _, f := range show {
			if v := resp.Header.Get(f); v != "" {
				fmt.Printf(" | %s: %s", f, v)
			}
		}
		if b := strings.TrimSpace(string(body)); b != "" {
			fmt.Printf(" | %s", b)
		}
		fmt.Println()
	}
}

// A Router with the usual middleware: request IDs, recovery, CORS and a
// rate limit, and JSON error bodies through the Server's ErrorHandler.
func Example() {
	r := router.New()
	r.Use(
		middleware.RequestID(middleware.RequestIDConfig{TrustIncoming: true}),
		middleware.Recovery(nil),
		middleware.CORS(middleware.CORSConfig{AllowOrigins: []string{"https://app.example"}}),
		middleware.RateLimit(middleware.RateLimitConfig{Rate: 10, Burst: 2}),
	)
	r.Handle("GET /hello", func(c *brisk.Ctx) { c.JSON(200, map[string]string{"hello": "world"}) })
	srv := &brisk.Server{Handler: r.Serve, ErrorHandler: func(c *brisk.Ctx, code int, err error) {
		c.JSON(code, map[string]any{"status": code, "request_id": string(middleware.GetRequestID(c, ""))})
	}}
	serve(srv, []string{"Access-Control-Allow-Origin", "X-Request-Id"},
		"GET /hello HTTP/1.1\nHost: h\nOrigin: https://app.example\nX-Request-ID: r1",
		"GET /nowhere HTTP/1.1\nHost: h\nX-Request-ID: r2",
		"GET /hello HTTP/1.1\nHost: h\nX-Request-ID: r3")
	// Output:
	// 200 OK | Access-Control-Allow-Origin: https://app.example | X-Request-Id: r1 | {"hello":"world"}
	// 404 Not Found | X-Request-Id: r2 | {"request_id":"r2","status":404}
	// 429 Too Many Requests | X-Request-Id: r3 | {"request_id":"r3","status":429}
}

// ExampleAccessLog writes the combined log format from the server's
// hooks (here to a buffer, printed once the server has shut down, with
// "[date]" for the date and "[µs]" for the duration).
func ExampleAccessLog() {
	var lines strings.Builder
	log := &middleware.AccessLog{Format: middleware.FormatCombined, Writer: &lines}
	srv := &brisk.Server{
		Handler:       func(c *brisk.Ctx) { c.Response.SetBodyString("hi") },
		OnRequestDone: log.OnRequestDone,
		OnReject:      log.OnReject,
	}
	serve(srv, nil, "GET /a?b HTTP/1.1\nHost: h\nReferer: https://r.example/\nUser-Agent: curl/8")
	line := lines.String()
	line = line[:strings.IndexByte(line, '[')] + "[date]" + line[strings.IndexByte(line, ']')+1:]
	fmt.Print(regexp.MustCompile(`" \d+ "h"`).ReplaceAllString(line, `" [µs] "h"`))
	// Output:
	// 200 OK | hi
	// inmemory - - [date] "GET /a?b HTTP/1.1" 200 77 "https://r.example/" "curl/8" [µs] "h" "-"
}

// ExampleRecovery logs a panic with its stack, one attribute per frame,
// and answers 500.
func ExampleRecovery() {
	h := middleware.Recovery(nil)(func(c *brisk.Ctx) { panic("boom") })
	serve(&brisk.Server{Handler: h}, nil, "GET / HTTP/1.1\nHost: h")
	// Output:
	// 500 Internal Server Error | Internal Server Error
}

// ExampleCORS answers a preflight and marks the actual response.
func ExampleCORS() {
	h := middleware.CORS(middleware.CORSConfig{
		AllowOrigins: []string{"https://app.example"},
		AllowMethods: []string{"PUT"},
		AllowHeaders: []string{"X-Token"},
		MaxAge:       time.Hour,
	})(func(c *brisk.Ctx) { c.Response.SetBodyString("updated") })
	serve(&brisk.Server{Handler: h},
		[]string{"Access-Control-Allow-Origin", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers", "Access-Control-Max-Age"},
		"OPTIONS /doc HTTP/1.1\nHost: h\nOrigin: https://app.example\nAccess-Control-Request-Method: PUT\nAccess-Control-Request-Headers: x-token",
		"PUT /doc HTTP/1.1\nHost: h\nOrigin: https://app.example\nContent-Length: 0")
	// Output:
	// 204 No Content | Access-Control-Allow-Origin: https://app.example | Access-Control-Allow-Methods: PUT | Access-Control-Allow-Headers: x-token | Access-Control-Max-Age: 3600
	// 200 OK | Access-Control-Allow-Origin: https://app.example | updated
}

// ExampleRateLimit allows bursts of two requests per client, then one
// every ten seconds.
func ExampleRateLimit() {
	h := middleware.RateLimit(middleware.RateLimitConfig{Rate: 0.1, Burst: 2})(func(c *brisk.Ctx) {})
	serve(&brisk.Server{Handler: h}, []string{"RateLimit", "Retry-After"},
		"GET / HTTP/1.1\nHost: h", "GET / HTTP/1.1\nHost: h", "GET / HTTP/1.1\nHost: h")
	// Output:
	// 200 OK | RateLimit: "default";r=1;t=10
	// 200 OK | RateLimit: "default";r=0;t=20
	// 429 Too Many Requests | RateLimit: "default";r=0;t=20 | Retry-After: 10 | Too Many Requests
}

// ExampleTimeout gives the handler a deadline; one that returns after
// it is answered 503.
func ExampleTimeout() {
	h := middleware.Timeout(10 * time.Millisecond)(func(c *brisk.Ctx) {
		<-c.Context().Done() // a slow database call would return here
	})
	serve(&brisk.Server{Handler: h}, nil, "GET / HTTP/1.1\nHost: h")
	// Output:
	// 503 Service Unavailable | Service Unavailable
}

// ExampleBasicAuth lets one user in.
func ExampleBasicAuth() {
	h := middleware.BasicAuth("admin", map[string]string{"Aladdin": "open sesame"})(func(c *brisk.Ctx) {
		c.Response.SetBodyString("hello " + middleware.BasicAuthUser(c))
	})
	serve(&brisk.Server{Handler: h}, []string{"WWW-Authenticate"},
		"GET / HTTP/1.1\nHost: h\nAuthorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
		"GET / HTTP/1.1\nHost: h")
	// Output:
	// 200 OK | hello Aladdin
	// 401 Unauthorized | WWW-Authenticate: Basic realm="admin", charset="UTF-8" | Unauthorized
}

// ExampleRequestID gives each request an ID, on the request for the
// handler and on the response.
func ExampleRequestID() {
	h := middleware.RequestID(middleware.RequestIDConfig{})(func(c *brisk.Ctx) {
		fmt.Println("handler sees an ID of", len(c.Request.Header.Get("X-Request-ID")), "hex digits")
	})
	serve(&brisk.Server{Handler: h}, nil, "GET / HTTP/1.1\nHost: h")
	// Output:
	// handler sees an ID of 32 hex digits
	// 200 OK
}
