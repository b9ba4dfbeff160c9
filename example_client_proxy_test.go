package brisk_test

import (
	"context"
	"fmt"
	"net/url"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// ExampleProxyURL sends a request through an HTTP proxy: for an http
// target the proxy receives the request in absolute-form, with the proxy
// URL's credentials as Proxy-Authorization (an https target would be
// tunnelled with CONNECT). Here the "proxy" is a brisk server that shows
// what it received. For net/http's HTTP_PROXY, HTTPS_PROXY and NO_PROXY
// rules, set Proxy to brisk.ProxyFromEnvironment.
func ExampleProxyURL() {
	proxy := &brisk.Server{Handler: func(c *brisk.Ctx) {
		fmt.Fprintf(&c.Response, "%s %s, %s", c.Request.Method(), c.Request.Target(),
			c.Request.Header.Get("Proxy-Authorization"))
	}}
	ln := brisktest.NewListener()
	go proxy.Serve(ln)
	defer proxy.Shutdown(context.Background())

	u, _ := url.Parse("http://alice:s3cret@proxy.internal:3128")
	c := brisk.Client{ClientConfig: brisk.ClientConfig{Proxy: brisk.ProxyURL(u), Dial: ln.DialContext}}
	var req brisk.Request
	var resp brisk.Response
	req.SetURI("http://api.example.com/v1/items")
	if err := c.Do(&req, &resp); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(resp.Body()))
	// Output:
	// GET http://api.example.com/v1/items, Basic YWxpY2U6czNjcmV0
}

// ExampleProxyFromEnvironment chooses proxies as net/http's
// DefaultTransport does, from HTTP_PROXY, HTTPS_PROXY and NO_PROXY; hosts
// on loopback are never proxied.
func ExampleProxyFromEnvironment() {
	c := brisk.Client{ClientConfig: brisk.ClientConfig{Proxy: brisk.ProxyFromEnvironment}}
	defer c.CloseIdleConnections()
	u, _ := brisk.ProxyFromEnvironment(&url.URL{Scheme: "http", Host: "127.0.0.1:8080"})
	fmt.Println(u)
	// Output: <nil>
}
