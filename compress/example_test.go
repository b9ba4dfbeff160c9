package compress_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/compress"
	"github.com/klauspost/compress/zstd"
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
	ln := brisktest.NewListener()
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

// ExampleBodyReader decodes a gzip request body, with a limit on its
// decoded size.
func ExampleBodyReader() {
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		r, err := compress.BodyReader(c, 1<<20)
		if err != nil {
			c.Response.SetStatusCode(compress.Status(err))
			return
		}
		defer r.Close()
		body, err := io.ReadAll(r)
		if err != nil {
			c.Response.SetStatusCode(compress.Status(err)) // 413 for a bomb
			return
		}
		fmt.Fprintf(&c.Response, "%d bytes: %s", len(body), body)
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("hello, decoded world"))
	zw.Close()
	conn, _ := ln.Dial()
	defer conn.Close()
	go fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s", gz.Len(), gz.Bytes())
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(body))
	// Output:
	// 200 20 bytes: hello, decoded world
}

// ExampleBodyDecoder accepts zstd request bodies with the 8 MiB window
// RFC 9659 asks HTTP decoders to support (klauspost/compress's encoder
// declares it for a body of more than one block), which BodyReader's
// default limit refuses with 413.
func ExampleBodyDecoder() {
	dec := &compress.BodyDecoder{MaxDecoded: 1 << 20, MaxWindow: 8 << 20}
	handler := func(open func(*brisk.Ctx) (io.ReadCloser, error)) brisk.Handler {
		return func(c *brisk.Ctx) {
			r, err := open(c)
			if err == nil {
				defer r.Close()
				var n int64
				if n, err = io.Copy(io.Discard, r); err == nil {
					fmt.Fprintf(&c.Response, "%d bytes", n)
					return
				}
			}
			c.Response.SetStatusCode(compress.Status(err))
		}
	}
	var body bytes.Buffer
	zw, _ := zstd.NewWriter(&body)
	zw.Write(bytes.Repeat([]byte("brisk "), 50000))
	zw.Close()
	for _, open := range []func(*brisk.Ctx) (io.ReadCloser, error){
		dec.Reader,
		func(c *brisk.Ctx) (io.ReadCloser, error) { return compress.BodyReader(c, 1<<20) },
	} {
		srv := &brisk.Server{Handler: handler(open)}
		ln := brisktest.NewListener()
		go srv.Serve(ln)
		conn, _ := ln.Dial()
		go fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Encoding: zstd\r\nContent-Length: %d\r\n\r\n%s", body.Len(), body.Bytes())
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		fmt.Printf("%d %s\n", resp.StatusCode, b)
		conn.Close()
		srv.Shutdown(context.Background())
	}
	// Output:
	// 200 300000 bytes
	// 413
}
