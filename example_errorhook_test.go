package brisk_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// exchange serves srv over an in-memory listener, sends each raw request
// on a connection of its own and prints each response's status and body.
func exchange(srv *brisk.Server, requests ...string) {
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	for _, rq := range requests {
		conn, _ := ln.Dial()
		defer conn.Close()
		br := bufio.NewReader(conn)
		go io.WriteString(conn, rq)
		method, _, _ := strings.Cut(rq, " ")
		resp, err := http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		fmt.Println(resp.Status, strings.TrimSpace(string(body)))
	}
}

// ExampleErrorHandler gives every response brisk generates a JSON body:
// here a request whose Content-Length is over MaxBodyBytes, and a
// handler's Ctx.Error.
func ExampleErrorHandler() {
	srv := &brisk.Server{
		MaxBodyBytes: 1024,
		Handler: func(c *brisk.Ctx) {
			c.Error(503, fmt.Errorf("database: %w", context.DeadlineExceeded))
		},
		ErrorHandler: func(c *brisk.Ctx, code int, err error) {
			c.JSON(code, map[string]any{"status": code, "error": err.Error()})
		},
	}
	exchange(srv,
		"POST /upload HTTP/1.1\r\nHost: h\r\nContent-Length: 4096\r\n\r\n",
		"GET /report HTTP/1.1\r\nHost: h\r\n\r\n")
	// Output:
	// 413 Content Too Large {"error":"wire: body too large","status":413}
	// 503 Service Unavailable {"error":"database: context deadline exceeded","status":503}
}

// ExampleCtx_JSON answers JSON and decodes a JSON body with a limit.
func ExampleCtx_JSON() {
	type item struct {
		Name string `json:"name"`
	}
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		var it item
		if c.DecodeJSON(&it, 1<<10) != nil {
			return // answered 400, 413 or 415
		}
		c.JSON(201, map[string]string{"created": it.Name})
	}}
	exchange(srv,
		"POST /items HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 14\r\n\r\n{\"name\":\"pen\"}",
		"POST /items HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi",
		"POST /items HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{\"na\"")
	// Output:
	// 201 Created {"created":"pen"}
	// 415 Unsupported Media Type Unsupported Media Type
	// 400 Bad Request Bad Request
}
