package brisk_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/textproto"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// A handler sends 103 Early Hints so that the client can fetch the style
// sheet while the page is being built (RFC 8297).
func ExampleCtx_SendInterim() {
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		c.Response.Header.Set("Link", "</style.css>; rel=preload; as=style")
		if err := c.SendInterim(103, &c.Response.Header); err != nil {
			c.Logger().Error("early hints", "err", err)
		}
		c.Response.Header.Set("Content-Type", "text/html")
		c.Response.SetBodyString("<!doctype html><link rel=stylesheet href=/style.css>")
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	conn, _ := ln.Dial()
	defer conn.Close()
	go io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	r := textproto.NewReader(bufio.NewReader(conn))
	for range 2 { // the interim response, then the final one's head
		line, _ := r.ReadLine()
		fields, _ := r.ReadMIMEHeader()
		fmt.Println(line)
		fmt.Println("Link:", fields.Get("Link"))
	}
	// Output:
	// HTTP/1.1 103 Early Hints
	// Link: </style.css>; rel=preload; as=style
	// HTTP/1.1 200 OK
	// Link: </style.css>; rel=preload; as=style
}
