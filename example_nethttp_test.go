package brisk_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// ExampleFromHTTP serves a net/http handler (here a ServeMux) on brisk.
func ExampleFromHTTP() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /hello/{name}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello, %s", r.PathValue("name"))
	})
	srv := &brisk.Server{Handler: brisk.FromHTTP(mux)}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	conn, _ := ln.Dial()
	defer conn.Close()
	go io.WriteString(conn, "GET /hello/gopher HTTP/1.1\r\nHost: example.com\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, resp.Header.Get("Content-Type"), resp.ContentLength)
	fmt.Println(string(body))
	// Output:
	// 200 OK text/plain; charset=utf-8 13
	// hello, gopher
}

// ExampleToHTTP mounts a brisk handler in a net/http server.
func ExampleToHTTP() {
	mux := http.NewServeMux()
	mux.Handle("/brisk/", brisk.ToHTTP(func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "text/plain")
		fmt.Fprintf(&c.Response, "brisk saw %s", c.Request.Path())
	}))
	ts := httptest.NewServer(mux)
	defer ts.Close()

	resp, err := http.Get(ts.URL + "/brisk/x")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, string(body))
	// Output:
	// 200 OK brisk saw /brisk/x
}
