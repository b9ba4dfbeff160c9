package brisk_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// ExampleBodyWriter_ReadFrom streams a body of known length with
// io.Copy; copied from an *os.File, it ends in ReadFrom, which sends the
// file by sendfile on TCP.
func ExampleBodyWriter_ReadFrom() {
	do, stop := exampleClient(func(c *brisk.Ctx) {
		content := strings.NewReader("streamed, not buffered\n")
		c.Response.Header.Set("Content-Type", "text/plain")
		c.Response.Header.Set("Content-Length", fmt.Sprint(content.Len()))
		io.Copy(c.BodyWriter(), content)
	})
	defer stop()

	resp, body, err := do("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(resp.ContentLength, " ", string(body))
	// Output:
	// 23 streamed, not buffered
}

// ExampleBodyWriter_ReadFromN sends a section of content, as a range of
// a file is sent: seek to its start, then copy its length. From an
// *os.File on TCP the section goes by sendfile.
func ExampleBodyWriter_ReadFromN() {
	do, stop := exampleClient(func(c *brisk.Ctx) {
		content := strings.NewReader("0123456789")
		content.Seek(3, io.SeekStart)
		c.Response.SetStatusCode(206)
		c.Response.Header.Set("Content-Range", "bytes 3-6/10")
		c.Response.Header.Set("Content-Length", "4")
		c.BodyWriter().ReadFromN(content, 4)
	})
	defer stop()

	resp, body, err := do("GET / HTTP/1.1\r\nHost: x\r\nRange: bytes=3-6\r\n\r\n")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Status, resp.Header.Get("Content-Range"), string(body))
	// Output:
	// 206 Partial Content bytes 3-6/10 3456
}

// exampleClient serves h over an in-memory listener, as a test would
// (ExampleServer shows the steps), and returns do, which sends request,
// a whole raw request, on one connection and returns the response with
// its body read, and stop, which closes the connection and the server.
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
