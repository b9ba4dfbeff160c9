// Command routerserver is the server of bench/router_e2e.sh: brisk
// answering every request with 200, Content-Type: text/plain and
// "Hello, World!" (the handler of bench/servers/brisk), either directly
// or, with -router, through a router.Router whose one route is
// "GET /users/{id}/posts/{post}". Requests outside that route get 404
// from the router.
package main

import (
	"flag"
	"log"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/router"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen `address`")
	useRouter := flag.Bool("router", false, "route through a router.Router")
	flag.Parse()
	h := func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "text/plain")
		c.Response.SetBodyString("Hello, World!")
	}
	if *useRouter {
		r := router.New()
		r.Handle("GET /users/{id}/posts/{post}", h)
		h = r.Serve
	}
	s := &brisk.Server{Handler: h, Name: "brisk"}
	log.Fatal(s.ListenAndServe(*addr))
}
