package brisk_test

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// ExampleRequest_SetBodyStream uploads a body read from an io.Reader of
// unknown length: it is sent chunked, a piece per Read, and never held
// in memory whole. SetGetBody lets a retry or a 307 redirect send it
// again.
func ExampleRequest_SetBodyStream() {
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		n, _ := io.Copy(io.Discard, c.Request.BodyReader())
		fmt.Fprintf(&c.Response, "got %d bytes, chunked: %v", n, c.Request.ContentLength() < 0)
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	c := brisk.Client{ClientConfig: brisk.ClientConfig{Dial: ln.DialContext}}
	open := func() (io.Reader, error) { return strings.NewReader(strings.Repeat("x", 100000)), nil }
	var req brisk.Request
	var resp brisk.Response
	req.SetMethod("PUT")
	req.SetURI("http://inmemory/upload")
	body, _ := open()
	req.SetBodyStream(body, -1) // -1: unknown length; a size sends Content-Length
	req.SetGetBody(open)
	if err := c.Do(&req, &resp); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.StatusCode(), string(resp.Body()))
	// Output:
	// 200 got 100000 bytes, chunked: true
}
