package proxyproto_test

import (
	"fmt"
	"net"

	"github.com/brisk-http/brisk/proxyproto"
)

// A header as a load balancer sends it, read back from the start of the
// connection's input, before the first request.
func ExampleParse() {
	input := []byte("PROXY TCP4 203.0.113.7 198.51.100.1 4242 443\r\nGET / HTTP/1.1\r\n")
	n, r := proxyproto.Scan(input)
	if r != proxyproto.Found {
		fmt.Println("no PROXY header")
		return
	}
	var h proxyproto.Header // reuse it for the next connection
	if err := proxyproto.Parse(input[:n], &h); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("v%d client %v, then %q\n", h.Version, h.Source, input[n:])
	// Output: v1 client 203.0.113.7:4242, then "GET / HTTP/1.1\r\n"
}

// A v2 header with a TLV, as a client sends it before its first request
// (brisk.ClientConfig.ProxyHeader does this on each new connection).
func ExampleAppend() {
	src := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 5), Port: 5555}
	dst := &net.TCPAddr{IP: net.IPv4(198, 51, 100, 1), Port: 443}
	h := proxyproto.NewHeader(2, src, dst, proxyproto.TLV{Type: 0x02, Value: []byte("example.com")})
	b, err := proxyproto.Append(nil, h)
	if err != nil {
		fmt.Println(err)
		return
	}
	var back proxyproto.Header
	err = proxyproto.Parse(b, &back)
	fmt.Println(len(b), back.Source, back.Destination, back.Authority(), err)
	// Output: 42 192.0.2.5:5555 198.51.100.1:443 example.com <nil>
}
