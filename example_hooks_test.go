package brisk_test

import (
	"context"
	"fmt"
	"net"
	"sync"

	"github.com/brisk-http/brisk"
)

// An access log from the completion hook, and a count of open
// connections from the state hook.
func ExampleServer_onRequestDone() {
	var mu sync.Mutex
	var lines []string
	srv := &brisk.Server{
		Handler: func(c *brisk.Ctx) {
			c.SetRoute("/hello/{name}") // what a router would record
			c.Response.WriteString("hello")
		},
		OnRequestDone: func(in *brisk.RequestInfo) {
			mu.Lock()
			defer mu.Unlock()
			host, _, _ := net.SplitHostPort(in.RemoteAddr.String())
			lines = append(lines, fmt.Sprintf("%s %s %s %s %d read>0=%v written>0=%v err=%v",
				host, in.Method, in.Target, in.Route, in.Status, in.BytesRead > 0, in.BytesWritten > 0, in.Err))
		},
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go srv.Serve(ln)

	hc := &brisk.HostClient{Addr: ln.Addr().String()}
	var req brisk.Request
	var resp brisk.Response
	req.SetTarget("/hello/ann?lang=en")
	if err := hc.Do(&req, &resp); err != nil {
		fmt.Println(err)
		return
	}
	hc.CloseIdleConnections()
	srv.Shutdown(context.Background()) // returns once the connection is closed, after the hook
	fmt.Println(lines)
	// Output: [127.0.0.1 GET /hello/ann?lang=en /hello/{name} 200 read>0=true written>0=true err=<nil>]
}
