// Command upstream is the upstream server of bench/proxy.sh: "/" answers
// 200 "Hello, World!" (text/plain), "/64k" 64 KiB of text; a request body
// is read and discarded.
package main

import (
	"bytes"
	"flag"
	"io"
	"log"

	"github.com/brisk-http/brisk"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9001", "listen `address`")
	flag.Parse()
	big := bytes.Repeat([]byte("x"), 64<<10)
	h := func(c *brisk.Ctx) {
		io.Copy(io.Discard, c.Request.BodyReader())
		c.Response.Header.Set("Content-Type", "text/plain")
		if string(c.Request.Path()) == "/64k" {
			c.Response.SetBody(big)
			return
		}
		c.Response.SetBodyString("Hello, World!")
	}
	s := &brisk.Server{Handler: h, Name: "upstream"}
	log.Fatal(s.ListenAndServe(*addr))
}
