package reverseproxy

import (
	"net/netip"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// TestProxyDropsClientXRealIP: a client's own X-Real-IP is a forwarding
// field like X-Forwarded-For: a backend that trusts the proxy and reads
// the client's address from X-Real-IP (brisk.FieldXRealIP, nginx's
// real_ip_header) must see the client's address, not one it made up.
func TestProxyDropsClientXRealIP(t *testing.T) {
	t.Skip("defect: backend with ClientIPField X-Real-IP trusting the proxy sees ClientIP 6.6.6.6 (client's X-Real-IP forwarded untouched); want 127.0.0.1 (X-Real-IP dropped, or set to the client's address)")
	be := &brisk.Server{
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		ClientIPField:  brisk.FieldXRealIP,
		Handler:        func(c *brisk.Ctx) { c.Response.SetBodyString(c.ClientIP().String()) },
	}
	p := &Proxy{Upstreams: []string{"http://" + testserver.Start(t, testserver.Quiet(be))}}
	addr := front(t, p)
	resp, body, err := roundTrip(t, addr, "GET / HTTP/1.1\r\nHost: x\r\nX-Real-IP: 6.6.6.6\r\n\r\n")
	if err != nil || resp.StatusCode != 200 || body != "127.0.0.1" {
		t.Fatalf("status %d, err %v, backend's ClientIP %q, want \"127.0.0.1\"", resp.StatusCode, err, body)
	}
}
