package lb_test

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/lb"
)

// ExampleClient balances requests over the servers of one service: the
// one with the fewest requests outstanding gets the next, and a server
// that fails is left alone for HealthPenalty while its requests go to
// the others. Here one of the two addresses has no server.
func ExampleClient() {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) { c.Response.SetBodyString("ok") }}
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	dead, _ := net.Listen("tcp", "127.0.0.1:0")
	dead.Close() // its port now refuses connections

	c := &lb.Client{
		Addrs:         []string{dead.Addr().String(), ln.Addr().String()},
		HealthPenalty: 10 * time.Second,
	}
	for range 4 {
		var req brisk.Request
		var resp brisk.Response
		req.SetURI("http://service.internal/health")
		err := c.Do(&req, &resp)
		fmt.Println(resp.StatusCode(), string(resp.Body()), err)
	}
	// Output:
	// 200 ok <nil>
	// 200 ok <nil>
	// 200 ok <nil>
	// 200 ok <nil>
}
