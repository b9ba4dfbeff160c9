package reverseproxy_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/reverseproxy"
)

// serveOn serves h on a loopback port and returns its address.
func serveOn(h brisk.Handler) (string, *brisk.Server) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := &brisk.Server{Handler: h}
	go srv.Serve(ln)
	return ln.Addr().String(), srv
}

func Example() {
	// An upstream that says who forwarded the request.
	upstream, up := serveOn(func(c *brisk.Ctx) {
		fmt.Fprintf(&c.Response, "hello via %s for %s", c.Request.Header.Get("Via"),
			c.Request.Header.Get("X-Forwarded-For"))
	})
	defer up.Shutdown(context.Background())

	// The reverse proxy in front of it.
	p := &reverseproxy.Proxy{Upstreams: []string{"http://" + upstream}}
	addr, srv := serveOn(p.Serve)
	defer srv.Shutdown(context.Background())
	defer p.CloseIdleConnections()

	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, string(body))
	// Output: 200 OK hello via 1.1 brisk for 127.0.0.1
}

func ExampleProxy_OnComplete() {
	upstream, up := serveOn(func(c *brisk.Ctx) { c.Response.SetStatusCode(http.StatusTeapot) })
	defer up.Shutdown(context.Background())
	done := make(chan string, 1)
	p := &reverseproxy.Proxy{
		Upstreams: []string{"http://" + upstream},
		OnComplete: func(c *brisk.Ctx, r *reverseproxy.Record) {
			done <- fmt.Sprintf("%s %s: upstream status %d after %d attempt(s), err %v",
				c.Request.Method(), c.Request.Target(), r.Status, r.Attempts, r.Err)
		},
	}
	addr, srv := serveOn(p.Serve)
	defer srv.Shutdown(context.Background())
	defer p.CloseIdleConnections()

	resp, err := http.Get("http://" + addr + "/tea")
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(<-done)
	// Output: GET /tea: upstream status 418 after 1 attempt(s), err <nil>
}
