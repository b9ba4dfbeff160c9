package files_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing/fstest"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/files"
)

// ExampleServer serves a file system under /static/. For a directory
// on disk, use os.OpenRoot(dir) and its FS method: no request can then
// leave the directory.
func ExampleServer() {
	fsys := fstest.MapFS{"hello.txt": {Data: []byte("Hello, files!\n"), ModTime: time.Unix(1e9, 0)}}
	fsrv := &files.Server{FS: fsys, Prefix: "/static/", Nosniff: true}
	do, stop := exampleClient(fsrv.Handle)
	defer stop()

	resp, body, err := do("GET /static/hello.txt HTTP/1.1\r\nHost: x\r\nRange: bytes=7-\r\n\r\n")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Status)
	fmt.Println(resp.Header.Get("Content-Range"), resp.Header.Get("Content-Type"))
	fmt.Println(resp.Header.Get("Last-Modified"))
	fmt.Printf("%q\n", body)
	// Output:
	// 206 Partial Content
	// bytes 7-13/14 text/plain; charset=utf-8
	// Sun, 09 Sep 2001 01:46:40 GMT
	// "files!\n"
}

// ExampleServeContent answers with content that is not a file, with
// validators and ranges.
func ExampleServeContent() {
	modified := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	do, stop := exampleClient(func(c *brisk.Ctx) { ServeReport(c, modified) })
	defer stop()

	resp, _, err := do("GET /report HTTP/1.1\r\nHost: x\r\nIf-Modified-Since: Tue, 02 Jan 2024 03:04:05 GMT\r\n\r\n")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Status)
	// Output:
	// 304 Not Modified
}

// ServeReport serves a generated CSV report.
func ServeReport(c *brisk.Ctx, modified time.Time) {
	files.ServeContent(c, "report.csv", modified, strings.NewReader("a,b\n1,2\n"))
}

func ExampleTypeByExtension() {
	fmt.Println(files.TypeByExtension("app.MJS"))
	fmt.Println(files.TypeByExtension("logo.svg"))
	fmt.Printf("%q\n", files.TypeByExtension("README"))
	// Output:
	// text/javascript; charset=utf-8
	// image/svg+xml
	// ""
}

// ExampleServer_cache shows the cache of small files: answered from
// memory, and checked against the file system at most once per
// CacheCheck (here on every request), so a changed file is served as it
// now is.
func ExampleServer_cache() {
	fsys := fstest.MapFS{"v.txt": {Data: []byte("one"), ModTime: time.Unix(1e9, 0)}}
	fsrv := &files.Server{FS: fsys, CacheBytes: 1 << 20, CacheCheck: -1}
	do, stop := exampleClient(fsrv.Handle)
	defer stop()

	get := func() {
		resp, body, err := do("GET /v.txt HTTP/1.1\r\nHost: x\r\n\r\n")
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(resp.Header.Get("ETag"), string(body))
	}
	get()
	get() // from memory
	fsys["v.txt"] = &fstest.MapFile{Data: []byte("two!"), ModTime: time.Unix(1e9+1, 0)}
	get()
	// Output:
	// "3-de0b6b3a7640000" one
	// "3-de0b6b3a7640000" one
	// "4-de0b6b3e2feca00" two!
}

// exampleClient serves h over an in-memory listener, as a test would, and
// returns do, which sends request, a whole raw request, on one connection
// and returns the response with its body read, and stop, which closes the
// connection and the server.
func exampleClient(h brisk.Handler) (do func(request string) (*http.Response, []byte, error), stop func()) {
	srv := &brisk.Server{Handler: h}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	conn, _ := ln.Dial()
	br := bufio.NewReader(conn)
	do = func(request string) (*http.Response, []byte, error) {
		go io.WriteString(conn, request)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return nil, nil, err
		}
		body, err := io.ReadAll(resp.Body)
		return resp, body, err
	}
	stop = func() {
		conn.Close()
		srv.Shutdown(context.Background())
	}
	return do, stop
}
