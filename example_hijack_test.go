package brisk_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// ExampleCtx_Hijack takes the connection over: the pipelined line after
// the request reaches the handler, not the server.
func ExampleCtx_Hijack() {
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		nc, buffered, err := c.Hijack()
		if err != nil {
			c.Response.SetStatusCode(500)
			return
		}
		defer nc.Close()
		line, _ := bufio.NewReader(io.MultiReader(strings.NewReader(string(buffered)), nc)).ReadString('\n')
		fmt.Fprintf(nc, "you said %s", line)
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	conn, _ := ln.Dial()
	defer conn.Close()
	go io.WriteString(conn, "GET /raw HTTP/1.1\r\nHost: example.com\r\n\r\nhello\n")
	out, _ := io.ReadAll(conn)
	fmt.Print(string(out))
	// Output:
	// you said hello
}

// ExampleCtx_Upgrade switches a request offering "echo/1" to a line echo
// protocol after a 101 response.
func ExampleCtx_Upgrade() {
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		nc, buffered, err := c.Upgrade("echo/1")
		if err != nil { // not offered: say what is required
			c.Response.SetStatusCode(426)
			c.Response.Header.Set("Upgrade", "echo/1")
			return
		}
		defer nc.Close()
		r := bufio.NewReader(io.MultiReader(strings.NewReader(string(buffered)), nc))
		line, _ := r.ReadString('\n')
		io.WriteString(nc, line)
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	conn, _ := ln.Dial()
	defer conn.Close()
	go io.WriteString(conn, "GET /echo HTTP/1.1\r\nHost: example.com\r\n"+
		"Connection: upgrade\r\nUpgrade: echo/1\r\n\r\nping\n")
	br := bufio.NewReader(conn)
	for {
		line, _ := br.ReadString('\n')
		if strings.HasPrefix(line, "Date:") {
			continue
		}
		fmt.Print(strings.ReplaceAll(line, "\r", ""))
		if line == "\r\n" || line == "" {
			break
		}
	}
	rest, _ := io.ReadAll(br)
	fmt.Print(string(rest))
	// Output:
	// HTTP/1.1 101 Switching Protocols
	// Connection: Upgrade
	// Upgrade: echo/1
	//
	// ping
}
