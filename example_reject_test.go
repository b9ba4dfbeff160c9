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

// ExampleServer_onReject logs the requests answered before the Handler,
// here one whose head has no Host field.
func ExampleServer_onReject() {
	srv := &brisk.Server{
		Handler: func(c *brisk.Ctx) {},
		OnReject: func(r brisk.Rejection) {
			fmt.Printf("rejected: %d %s %s (%v)\n", r.Status, r.Method, r.Target, r.Err)
		},
	}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	conn, _ := ln.Dial()
	defer conn.Close()
	go io.WriteString(conn, "GET /docs HTTP/1.1\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Status)
	// Output:
	// rejected: 400 GET /docs (wire: missing, repeated or invalid Host at byte 20)
	// 400 Bad Request
}
