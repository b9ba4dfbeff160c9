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
	for field, want := range map[ForwardingField]string{FieldForwarded: "2001:db8::7", FieldXForwardedFor: "198.51.100.1"} {
		x.c.srv.ClientIPField = field
		if n := testing.AllocsPerRun(100, func() { got = x.ClientIP() }); n != 0 {
			t.Fatalf("ClientIP with %s: %v allocs, want 0", field, n)
		}
		if got.String() != want {
			t.Fatalf("ClientIP with %s: %v, want %s", field, got, want)
		}
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
