// Command adaptor is the net/http plaintext handler of servers/nethttp
// served on brisk through brisk.FromHTTP, for the end-to-end comparison
// of the adaptor with net/http itself.
package main

import (
	"flag"
	"io"
	"log"
	"log/slog"
	"net/http"

	"github.com/brisk-http/brisk"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen `address`")
	flag.Parse()
	body := []byte("Hello, World!")
	server := []string{"nethttp"}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Server"] = server
		w.Header()["Content-Type"] = []string{"text/plain"}
		w.Write(body)
	})
	s := &brisk.Server{Handler: brisk.FromHTTP(h), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	log.Fatal(s.ListenAndServe(*addr))
}
