package reverseproxy

import (
	"io"
	"slices"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestProxyTrailerFields: a trailer section loses, both ways, the fields
// a Proxy would not pass on in a header section (hop-by-hop, a client's
// forwarding fields) and those for framing and routing (RFC 9110
// §6.5.1): an upstream merging trailer fields into the header section
// would take a spoofed X-Forwarded-For or Host as this hop's. Other
// trailer fields pass.
func TestProxyTrailerFields(t *testing.T) {
	got := make(chan []string, 1)
	up := backend(t, func(c *brisk.Ctx) {
		io.Copy(io.Discard, c.Request.BodyReader())
		var names []string
		for name := range c.Request.Trailer.All() {
			names = append(names, string(name))
		}
		got <- names
		c.Response.Header.Set("Trailer", "X-Sum")
		w := c.BodyWriter()
		w.WriteString("ok")
		for _, f := range [][2]string{{"X-Sum", "1"}, {"Content-Length", "9"}, {"Connection", "close"},
			{"Transfer-Encoding", "chunked"}, {"Host", "evil"}, {"Via", "1.1 evil"}} {
			c.Response.Trailer.Set(f[0], f[1])
		}
	})
	addr := front(t, &Proxy{Upstreams: []string{up}})
	resp, body, err := roundTrip(t, addr, "POST / HTTP/1.1\r\nHost: a\r\nTE: trailers\r\nTransfer-Encoding: chunked\r\n\r\n"+
		"3\r\nabc\r\n0\r\nX-Sum: 1\r\nX-Forwarded-For: 6.6.6.6\r\nX-Real-IP: 6.6.6.6\r\nForwarded: for=6.6.6.6\r\n"+
		"Content-Length: 99\r\nHost: evil\r\nTransfer-Encoding: chunked\r\nConnection: close\r\nTrailer: X-Sum\r\n\r\n")
	if err != nil || body != "ok" {
		t.Fatalf("body %q, err %v", body, err)
	}
	if names := <-got; !slices.Equal(names, []string{"X-Sum"}) {
		t.Errorf("upstream got request trailer fields %q; want [X-Sum]", names)
	}
	var names []string
	for name := range resp.Trailer {
		if resp.Trailer.Get(name) != "" {
			names = append(names, name)
		}
	}
	if !slices.Equal(names, []string{"X-Sum"}) {
		t.Errorf("client got response trailer fields %v; want [X-Sum]", resp.Trailer)
	}
}
