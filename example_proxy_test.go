package brisk_test

import (
	"context"
	"fmt"
	"net"
	"net/netip"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/proxyproto"
)

// A server behind a load balancer that sends PROXY headers from
// 127.0.0.0/8, and a client playing the load balancer.
func ExampleProxyProtocol() {
	srv := &brisk.Server{
		ProxyProtocol: &brisk.ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}},
		Handler: func(c *brisk.Ctx) {
			fmt.Fprintf(&c.Response, "client %s via a v%d header", c.RemoteAddr(), c.Proxy().Version)
		},
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	hc := &brisk.HostClient{Addr: ln.Addr().String()}
	hc.ProxyHeader = func(nc net.Conn) *proxyproto.Header {
		client := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 5), Port: 5555}
		return proxyproto.NewHeader(2, client, nc.RemoteAddr())
	}
	var req brisk.Request
	var resp brisk.Response
	req.SetTarget("/")
	if err := hc.Do(&req, &resp); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(resp.Body()))
	// Output: client 192.0.2.5:5555 via a v2 header
}
