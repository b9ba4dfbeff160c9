//go:build !race

package brisk

import (
	"net"
	"net/netip"
	"testing"
)

func TestClientIPAllocs(t *testing.T) {
	var x Ctx
	x.c = &conn{srv: &Server{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("10.0.0.0/8")}}}
	x.c.nc = fakeAddrConn{}
	x.Request.Header.Add("Forwarded", `for="[2001:db8::7]:4711", for=10.0.0.1`)
	x.Request.Header.Add("X-Forwarded-For", "203.0.113.7, 198.51.100.1")
	var got netip.Addr
	if n := testing.AllocsPerRun(100, func() { got = x.ClientIP() }); n != 0 {
		t.Fatalf("ClientIP with Forwarded: %v allocs, want 0", n)
	}
	if got.String() != "2001:db8::7" {
		t.Fatalf("ClientIP %v", got)
	}
	x.c.srv.TrustedProxies = nil
	if n := testing.AllocsPerRun(100, func() { got = x.ClientIP() }); n != 0 {
		t.Fatalf("ClientIP untrusted: %v allocs, want 0", n)
	}
}

var loopback = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}

// fakeAddrConn is a net.Conn with only addresses.
type fakeAddrConn struct{ net.Conn }

func (fakeAddrConn) RemoteAddr() net.Addr { return loopback }
