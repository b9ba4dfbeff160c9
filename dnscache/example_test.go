package dnscache_test

import (
	"context"
	"fmt"
	"net"
	"net/netip"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/dnscache"
)

// staticResolver resolves every name to 127.0.0.1, counting look-ups.
type staticResolver struct{ lookups int }

func (r *staticResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	r.lookups++
	return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
}

// ExampleCache dials through a DNS cache: three connections to one
// name cost one look-up (within the TTL, one minute by default).
func ExampleCache() {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) { c.Response.SetBodyString("ok") }}
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	_, port, _ := net.SplitHostPort(ln.Addr().String())

	r := &staticResolver{}
	dns := &dnscache.Cache{Resolver: r}
	c := brisk.Client{ClientConfig: brisk.ClientConfig{Dial: dns.DialContext}}
	for range 3 {
		var req brisk.Request
		var resp brisk.Response
		req.SetURI("http://service.internal:" + port + "/")
		req.Header.Set("Connection", "close") // a new connection each time
		if err := c.Do(&req, &resp); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println("look-ups:", r.lookups)
	// Output: look-ups: 1
}
