package brisk_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// upper is a BodyFilter that sends a streamed body in upper case.
type upper struct{ out io.Writer }

func (u *upper) Begin(c *brisk.Ctx) bool {
	u.out = c.BodyWriter().Unfiltered()
	return true
}
func (u *upper) Write(p []byte) (int, error) { return u.out.Write(bytes.ToUpper(p)) }
func (u *upper) Flush() error                { return nil }

// ExampleBodyWriter_SetFilter transforms a streamed body with a
// BodyFilter, as package compress does.
func ExampleBodyWriter_SetFilter() {
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		w := c.BodyWriter()
		w.SetFilter(&upper{})
		c.Response.Header.Set("Content-Type", "text/plain")
		w.WriteString("hello, ")
		w.Flush()
		w.WriteString("filter")
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	conn, _ := ln.Dial()
	defer conn.Close()
	go io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(string(body))
	// Output:
	// HELLO, FILTER
}
