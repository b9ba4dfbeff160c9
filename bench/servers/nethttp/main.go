// Command nethttp is the net/http plaintext server of the end-to-end
// benchmark: every request gets 200, Content-Type: text/plain and
// "Hello, World!".
package main

import (
	"flag"
	"log"
	"net/http"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen `address`")
	flag.Parse()
	body := []byte("Hello, World!")
	server := []string{"nethttp"} // only read by net/http: shared, no alloc per response
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Server, as brisk and fasthttp send it (their Server.Name).
		w.Header()["Server"] = server
		w.Header()["Content-Type"] = []string{"text/plain"}
		w.Write(body)
	})
	log.Fatal(http.ListenAndServe(*addr, h))
}
