//go:build unix

package reuseport_test

import (
	"context"
	"fmt"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/reuseport"
)

// Several SO_REUSEPORT listeners on one port, one accept loop each.
func ExampleListen() {
	lns, err := reuseport.Listen("tcp", "127.0.0.1:0", 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) { c.Response.WriteString("hello") }}
	for _, ln := range lns {
		go srv.Serve(ln)
	}
	defer srv.Shutdown(context.Background())
	fmt.Println(len(lns), lns[0].Addr().String() == lns[1].Addr().String())
	// Output: 2 true
}
