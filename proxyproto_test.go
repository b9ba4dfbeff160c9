package brisk

import (
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/brisk-http/brisk/proxyproto"
)

// remoteHandler answers with the client's address, the peer's and what
// the PROXY header said.
func remoteHandler(c *Ctx) {
	fmt.Fprintf(&c.Response, "remote=%s peer=%s", c.RemoteAddr(), c.PeerAddr())
	if h := c.Proxy(); h != nil {
		ssl, ok := h.SSL()
		fmt.Fprintf(&c.Response, " v%d alpn=%q authority=%q ssl=%v/%v/%q", h.Version, h.ALPN(), h.Authority(), ok, ssl.TLS, ssl.Version)
	}
}

func loopbackOnly() *ProxyProtocol {
	return &ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
}

// proxyV2 encodes a v2 PROXY TCP4 header from 203.0.113.7:4242 to
// 198.51.100.1:443 with the given raw TLV bytes.
func proxyV2(tlvs []byte) string {
	b := []byte("\r\n\r\n\x00\r\nQUIT\n\x21\x11")
	b = binary.BigEndian.AppendUint16(b, uint16(12+len(tlvs)))
	b = append(b, 203, 0, 113, 7, 198, 51, 100, 1, 0x10, 0x92, 0x01, 0xbb)
	return string(append(b, tlvs...))
}

func tlv(typ byte, v string) []byte {
	return append([]byte{typ, byte(len(v) >> 8), byte(len(v))}, v...)
}

func TestProxyProtocolTrusted(t *testing.T) {
	ssl := append([]byte{0x01, 0, 0, 0, 0}, tlv(0x21, "TLSv1.3")...)
	cases := []struct {
		name, header, want string
	}{
		{"v1_tcp4", "PROXY TCP4 203.0.113.7 198.51.100.1 4242 443\r\n",
			"remote=203.0.113.7:4242 peer=127.0.0.1:"},
		{"v1_tcp6", "PROXY TCP6 2001:db8::7 2001:db8::1 4242 443\r\n",
			"remote=[2001:db8::7]:4242 peer=127.0.0.1:"},
		{"v1_unknown", "PROXY UNKNOWN\r\n", "remote=127.0.0.1:"},
		{"v2_tcp4", proxyV2(nil), "remote=203.0.113.7:4242 peer=127.0.0.1:"},
		{"v2_tlvs", proxyV2(append(append(tlv(0x01, "h2"), tlv(0x02, "example.com")...), append([]byte{0x20, 0, byte(len(ssl))}, ssl...)...)),
			"remote=203.0.113.7:4242"},
		{"v2_local", "\r\n\r\n\x00\r\nQUIT\n\x20\x00\x00\x00", "remote=127.0.0.1:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, "tcp", &Server{Handler: remoteHandler, ProxyProtocol: loopbackOnly()})
			c := ts.connect()
			c.sendSync(tc.header)
			for range 2 { // keep-alive: the header applies to every request
				_, body := c.roundTrip(get("/"))
				if len(body) < len(tc.want) || body[:len(tc.want)] != tc.want {
					t.Fatalf("body %q, want prefix %q", body, tc.want)
				}
				if tc.name == "v2_tlvs" {
					want := `v2 alpn="h2" authority="example.com" ssl=true/true/"TLSv1.3"`
					if got := body[len(body)-len(want):]; got != want {
						t.Fatalf("body %q, want suffix %q", body, want)
					}
				}
			}
		})
	}
}

func TestProxyProtocolHeaderWithRequest(t *testing.T) {
	// Header and request in one segment, and the header split byte by byte.
	ts := startServer(t, "tcp", &Server{Handler: remoteHandler, ProxyProtocol: loopbackOnly()})
	c := ts.connect()
	_, body := c.roundTrip(proxyV2(nil) + get("/"))
	if want := "remote=203.0.113.7:4242 peer=127.0.0.1:"; body[:len(want)] != want {
		t.Fatalf("one segment: body %q", body)
	}
	c = ts.connect()
	c.nc.(*net.TCPConn).SetNoDelay(true)
	h := "PROXY TCP4 203.0.113.9 198.51.100.1 4242 443\r\n"
	for i := range len(h) {
		c.sendSync(h[i : i+1])
		time.Sleep(time.Millisecond)
	}
	_, body = c.roundTrip(get("/"))
	if want := "remote=203.0.113.9:4242"; body[:len(want)] != want {
		t.Fatalf("byte by byte: body %q", body)
	}
}

func TestProxyProtocolRefused(t *testing.T) {
	untrusted := &ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}
	cases := []struct {
		name  string
		pp    *ProxyProtocol
		input string
	}{
		{"trusted_no_header", loopbackOnly(), get("/")},
		{"trusted_garbage", loopbackOnly(), "PROXY garbage\r\n" + get("/")},
		{"trusted_v1_too_long", loopbackOnly(), "PROXY TCP4 " + string(make([]byte, 120))},
		{"trusted_v2_bad_version", loopbackOnly(), "\r\n\r\n\x00\r\nQUIT\n\x31\x11\x00\x0c" + "123456789012"},
		{"trusted_v2_short_addresses", loopbackOnly(), "\r\n\r\n\x00\r\nQUIT\n\x21\x11\x00\x04" + "1234" + get("/")},
		{"untrusted_v1", untrusted, "PROXY TCP4 203.0.113.7 198.51.100.1 4242 443\r\n" + get("/")},
		{"untrusted_v2", untrusted, proxyV2(nil) + get("/")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, "tcp", &Server{Handler: remoteHandler, ProxyProtocol: tc.pp})
			c := ts.connect()
			c.sendSync(tc.input)
			c.expectClosed()
		})
	}
}

func TestProxyProtocolUntrustedDirect(t *testing.T) {
	untrusted := &ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}
	ts := startServer(t, "tcp", &Server{Handler: remoteHandler, ProxyProtocol: untrusted})
	c := ts.connect()
	_, body := c.roundTrip("\r\n" + get("/"))
	if want := "remote=127.0.0.1:"; body[:len(want)] != want {
		t.Fatalf("body %q", body)
	}
}

func TestProxyProtocolHeaderTimeout(t *testing.T) {
	pp := loopbackOnly()
	pp.HeaderTimeout = 50 * time.Millisecond
	ts := startServer(t, "tcp", &Server{Handler: remoteHandler, ProxyProtocol: pp})
	c := ts.connect()
	start := time.Now()
	c.sendSync("PROXY TCP4 ")
	c.expectClosed()
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("closed after %v, want about 50ms", d)
	}
}

func TestClientProxyHeader(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: remoteHandler, ProxyProtocol: loopbackOnly()})
	addr := ts.connect().nc.RemoteAddr().String()
	for _, v := range []int{1, 2} {
		hc := &HostClient{Addr: addr}
		hc.ProxyHeader = func(nc net.Conn) *proxyproto.Header {
			src := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 5), Port: 5555}
			return proxyproto.NewHeader(v, src, nc.RemoteAddr(), proxyproto.TLV{Type: 0x02, Value: []byte("a.example")})
		}
		var req Request
		var resp Response
		req.SetTarget("http://" + addr + "/")
		if err := hc.Do(&req, &resp); err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		want := "remote=192.0.2.5:5555 peer=127.0.0.1:"
		if got := string(resp.Body()); got[:len(want)] != want {
			t.Fatalf("v%d: body %q, want prefix %q", v, got, want)
		}
	}
}

// TestProxyProtocolPooledConn: a connection served by a pooled conn whose
// last request left its body reader reading still reads its PROXY header
// under the header timeout (it was read under that request's body
// deadline, long past: the connection was closed).
func TestProxyProtocolPooledConn(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: remoteHandler, ProxyProtocol: loopbackOnly(),
		ReadTimeout: 30 * time.Second})
	for i := range 20 {
		c := ts.connect()
		_, body := c.roundTrip(proxyV2(nil) + "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		if want := "remote=203.0.113.7:4242"; len(body) < len(want) || body[:len(want)] != want {
			t.Fatalf("connection %d: body %q, want prefix %q", i, body, want)
		}
	}
}
