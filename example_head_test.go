package brisk_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// ExampleResponse_SetLengthUnknown answers HEAD with the fields a GET
// gets, without producing the body whose length the GET's Content-Length
// would give (here, a report built on demand).
func ExampleResponse_SetLengthUnknown() {
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "text/csv")
		if string(c.Request.Method()) == "HEAD" {
			c.Response.SetLengthUnknown()
			return
		}
		c.Response.SetBodyString("id,total\n1,42\n")
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	conn, _ := ln.Dial()
	defer conn.Close()
	go io.WriteString(conn, "HEAD /report HTTP/1.1\r\nHost: x\r\n\r\nGET /report HTTP/1.1\r\nHost: x\r\n\r\n")
	r := bufio.NewReader(conn)
	for _, method := range []string{"HEAD", "GET"} {
		resp, err := http.ReadResponse(r, &http.Request{Method: method})
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		fmt.Printf("%s: %s, Content-Length %q, %d body bytes\n", method,
			resp.Header.Get("Content-Type"), resp.Header.Get("Content-Length"), len(body))
	}
	// Output:
	// HEAD: text/csv, Content-Length "", 0 body bytes
	// GET: text/csv, Content-Length "14", 14 body bytes
}
