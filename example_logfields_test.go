package brisk_test

import (
	"context"
	"fmt"
	"net"
	"net/netip"

	"github.com/brisk-http/brisk"
)

// The fields of a request an access log records, behind a trusted proxy
// that writes X-Forwarded-For, and the requests rejected before the
// handler that the completion hook does not see.
func ExampleRequestInfo() {
	lines := make(chan string, 2)
	srv := &brisk.Server{
		Handler:        func(c *brisk.Ctx) { c.Response.WriteString("hello") },
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		OnRequestDone: func(in *brisk.RequestInfo) {
			lines <- fmt.Sprintf("%s %q %s %d host=%s ua=%q referer=%q id=%q", in.ClientIP, in.Method, in.Target,
				in.Status, in.Host, in.UserAgent, in.Referer, in.RequestID)
		},
		OnReject: func(r brisk.Rejection) {
			if !r.HeadParsed() { // else OnRequestDone reports it too
				lines <- fmt.Sprintf("rejected %d", r.Status)
			}
		},
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	for _, raw := range []string{
		"GET /a HTTP/1.1\r\nHost: example.com\r\nUser-Agent: curl/8\r\nX-Forwarded-For: 203.0.113.7\r\nX-Request-ID: r1\r\nConnection: close\r\n\r\n",
		"GET /a HTTP/1.1\r\nConnection: close\r\n\r\n", // no Host
	} {
		nc, _ := net.Dial("tcp", ln.Addr().String())
		nc.Write([]byte(raw))
		nc.Read(make([]byte, 512))
		fmt.Println(<-lines)
		nc.Close()
	}
	// Output:
	// 203.0.113.7 "GET" /a 200 host=example.com ua="curl/8" referer="" id="r1"
	// rejected 400
}
