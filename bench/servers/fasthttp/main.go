// Command fasthttp is the fasthttp plaintext server of the end-to-end
// benchmark: every request gets 200, Content-Type: text/plain and
// "Hello, World!".
package main

import (
	"flag"
	"log"

	"github.com/valyala/fasthttp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen `address`")
	flag.Parse()
	body := []byte("Hello, World!")
	h := func(c *fasthttp.RequestCtx) {
		c.Response.Header.SetContentType("text/plain")
		c.Response.SetBody(body)
	}
	s := &fasthttp.Server{Handler: h, Name: "fasthttp"}
	log.Fatal(s.ListenAndServe(*addr))
}
