package brisk_test

import (
	"context"
	"fmt"
	"time"

	"github.com/brisk-http/brisk"
)

// Taking a server out of a load balancer's pool before stopping it: the
// readiness check fails, clients are told to close, and Shutdown follows
// once they are gone and the load balancer has had DrainDelay to see the
// server not ready (or after 30 s). The default delay is 5 s; this
// example, with nothing in front of it, waits 100 ms.
func ExampleServer_Drain() {
	srv := &brisk.Server{DrainDelay: 100 * time.Millisecond}
	srv.Handler = func(c *brisk.Ctx) {
		if string(c.Request.Path()) == "/readyz" {
			srv.ReadinessHandler(c)
			return
		}
		c.Response.WriteString("hello")
	}
	// go srv.ListenAndServe(addr) ... then, on SIGTERM:
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := srv.Drain(ctx)
	fmt.Println(srv.Draining(), err)
	// Output: true <nil>
}
