package brisk_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// ExampleServer serves one request over an in-memory listener, as a test
// would.
func ExampleServer() {
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "text/plain")
		fmt.Fprintf(&c.Response, "%s %s", c.Request.Method(), c.Request.Path())
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	conn, _ := ln.Dial()
	defer conn.Close()
	go io.WriteString(conn, "GET /a/../docs/%7Eguide HTTP/1.1\r\nHost: example.com\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status)
	fmt.Println(string(body))
	// Output:
	// 200 OK
	// GET /docs/~guide
}

func ExampleRequest_QueryArgs() {
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		args := c.Request.QueryArgs()
		fmt.Printf("q=%q page=%q\n", args.Peek("q"), args.Peek("page"))
		for tag := range args.Values("tag") {
			fmt.Printf("tag=%q\n", tag)
		}
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	conn, _ := ln.Dial()
	defer conn.Close()
	go io.WriteString(conn, "GET /search?q=caf%C3%A9+au+lait&page=2&tag=a&tag=b HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, _ := http.ReadResponse(bufio.NewReader(conn), nil)
	resp.Body.Close()
	// Output:
	// q="café au lait" page="2"
	// tag="a"
	// tag="b"
}

func ExampleSetCookie_AppendTo() {
	c := brisk.SetCookie{
		Name:     "session",
		Value:    "4f1c2a9e",
		Path:     "/",
		Expires:  time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC),
		Secure:   true,
		HttpOnly: true,
		SameSite: brisk.SameSiteLax,
	}
	v, err := c.AppendTo(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(v))

	c.Value = "x\r\nSet-Cookie: admin=1" // header injection is refused
	_, err = c.AppendTo(nil)
	fmt.Println(err)
	// Output:
	// session=4f1c2a9e; Path=/; Expires=Wed, 02 Jan 2030 03:04:05 GMT; Secure; HttpOnly; SameSite=Lax
	// brisk: invalid cookie value
}
