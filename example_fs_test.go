package brisk_test

import (
	"fmt"
	"strings"
	"testing/fstest"
	"time"

	"github.com/brisk-http/brisk"
)

// ExampleFileServer serves a file system under /static/. For a directory
// on disk, use os.OpenRoot(dir) and its FS method: no request can then
// leave the directory.
func ExampleFileServer() {
	files := fstest.MapFS{"hello.txt": {Data: []byte("Hello, files!\n"), ModTime: time.Unix(1e9, 0)}}
	fsrv := &brisk.FileServer{FS: files, Prefix: "/static/", Nosniff: true}
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
	brisk.ServeContent(c, "report.csv", modified, strings.NewReader("a,b\n1,2\n"))
}

func ExampleTypeByExtension() {
	fmt.Println(brisk.TypeByExtension("app.MJS"))
	fmt.Println(brisk.TypeByExtension("logo.svg"))
	fmt.Printf("%q\n", brisk.TypeByExtension("README"))
	// Output:
	// text/javascript; charset=utf-8
	// image/svg+xml
	// ""
}

// ExampleFileServer_cache shows the cache of small files: answered from
// memory, and checked against the file system at most once per
// CacheCheck (here on every request), so a changed file is served as it
// now is.
func ExampleFileServer_cache() {
	files := fstest.MapFS{"v.txt": {Data: []byte("one"), ModTime: time.Unix(1e9, 0)}}
	fsrv := &brisk.FileServer{FS: files, CacheBytes: 1 << 20, CacheCheck: -1}
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
	files["v.txt"] = &fstest.MapFile{Data: []byte("two!"), ModTime: time.Unix(1e9+1, 0)}
	get()
	// Output:
	// "3-de0b6b3a7640000" one
	// "3-de0b6b3a7640000" one
	// "4-de0b6b3e2feca00" two!
}
