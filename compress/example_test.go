package compress_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/compress"
)

// Example compresses a handler's responses with the coding each client
// prefers.
func Example() {
	page := strings.Repeat("<p>Hello, compression!</p>\n", 100)
	handler := func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "text/html; charset=utf-8")
		c.Response.SetBodyString(page)
	}
	srv := &brisk.Server{Handler: compress.New(compress.Config{})(handler)}
	ln := brisk.NewInmemoryListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	conn, _ := ln.Dial()
	defer conn.Close()
	go io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, br;q=0.9\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"))
	fmt.Println("compressed to under a tenth:", len(body) < len(page)/10)
	// Output:
	// gzip Accept-Encoding
	// compressed to under a tenth: true
}
