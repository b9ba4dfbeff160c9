package brisk_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/netip"

	"github.com/brisk-http/brisk"
)

// A server behind proxies on 127.0.0.0/8 reads the client's address from
// X-Forwarded-For: the right-most address it does not trust.
func ExampleCtx_ClientIP() {
	srv := &brisk.Server{
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		Handler:        func(c *brisk.Ctx) { c.Response.WriteString(c.ClientIP().String()) },
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	nc, _ := net.Dial("tcp", ln.Addr().String())
	defer nc.Close()
	io.WriteString(nc, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"+
		"X-Forwarded-For: 10.6.6.6, 203.0.113.7, 127.0.0.2\r\n\r\n")
	resp, _ := io.ReadAll(bufio.NewReader(nc))
	_, body, _ := cutLast(string(resp), "\r\n\r\n")
	fmt.Println(body)
	// Output: 203.0.113.7
}

// Behind proxies that append to Forwarded (RFC 7239), ClientIPField
// names it: an X-Forwarded-For the client sent is then never read.
func ExampleForwardingField() {
	srv := &brisk.Server{
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		ClientIPField:  brisk.FieldForwarded,
		Handler:        func(c *brisk.Ctx) { c.Response.WriteString(c.ClientIP().String()) },
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	nc, _ := net.Dial("tcp", ln.Addr().String())
	defer nc.Close()
	io.WriteString(nc, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"+
		"X-Forwarded-For: 198.51.100.66\r\n"+
		"Forwarded: for=203.0.113.7;proto=https, for=127.0.0.2\r\n\r\n")
	resp, _ := io.ReadAll(bufio.NewReader(nc))
	_, body, _ := cutLast(string(resp), "\r\n\r\n")
	fmt.Println(body)
	// Output: 203.0.113.7
}

func cutLast(s, sep string) (string, string, bool) {
	for i := len(s) - len(sep); i >= 0; i-- {
		if s[i:i+len(sep)] == sep {
			return s[:i], s[i+len(sep):], true
		}
	}
	return s, "", false
}
