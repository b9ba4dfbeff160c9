// Command brisk is the brisk plaintext server of the end-to-end
// benchmark: every request gets 200, Content-Type: text/plain and
// "Hello, World!".
package main

import (
	"flag"
	"log"

	"github.com/brisk-http/brisk"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen `address`")
	park := flag.Bool("park", true, "park idle keep-alive connections (false: Server.NoParkIdle)")
	parkAfter := flag.Duration("park-after", 0, "Server.ParkIdleAfter (negative: park at once)")
	flag.Parse()
	h := func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "text/plain")
		c.Response.SetBodyString("Hello, World!")
	}
	s := &brisk.Server{Handler: h, Name: "brisk", NoParkIdle: !*park, ParkIdleAfter: *parkAfter}
	log.Fatal(s.ListenAndServe(*addr))
}
