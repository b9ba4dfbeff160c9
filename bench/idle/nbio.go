package main

import (
	"net"
	"net/http"

	"github.com/lesismal/nbio/logging"
	"github.com/lesismal/nbio/nbhttp"
)

// serveNbio serves ln with nbio's event-loop HTTP engine (nbhttp) and a
// net/http handler, until the process ends.
func serveNbio(ln net.Listener) error {
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(helloBody))
	}
	logging.SetLevel(logging.LevelNone) // it logs to stdout, the child's answer pipe
	e := nbhttp.NewEngine(nbhttp.Config{
		Network:       "tcp",
		Addrs:         []string{ln.Addr().String()},
		Listen:        func(string, string) (net.Listener, error) { return ln, nil },
		Handler:       http.HandlerFunc(h),
		KeepaliveTime: idleTimeout,
	})
	if err := e.Start(); err != nil {
		return err
	}
	select {}
}
