package advisories

import (
	"net/http"
	"net/netip"
	"net/url"
	"testing"

	"github.com/brisk-http/brisk"
)

// spoofFields is what a client sends to pass for another address.
const spoofFields = "X-Forwarded-For: 127.0.0.1, 10.0.0.1\r\nX-Real-IP: 127.0.0.1\r\n" +
	"Forwarded: for=127.0.0.1\r\nTrue-Client-IP: 127.0.0.1\r\nX-Client-IP: 127.0.0.1\r\n"

// clientIP sends a GET with fields to a server configured by s and
// returns what Ctx.ClientIP gave the handler.
func clientIP(t *testing.T, s *brisk.Server, fields string) string {
	t.Helper()
	got := make(chan string, 1)
	s.Handler = func(c *brisk.Ctx) { got <- c.ClientIP().String() }
	addr, _ := serve(t, s)
	if a := exchange(t, addr, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n"+fields+"\r\n"); a.status != 200 {
		t.Fatalf("status %d", a.status)
	}
	return <-got
}

// TestClientAddressSpoofing: fiber's X-Real-IP spoofing advisory and
// CVE-2023-41338 (fiber's Ctx.IsFromLocal believed X-Forwarded-For),
// and gin's CVE-2020-28483 (ClientIP trusted X-Forwarded-For from any
// peer). brisk's ClientIP reads no field unless the peer is a trusted
// proxy, then only the one field configured, right-most untrusted
// address first.
func TestClientAddressSpoofing(t *testing.T) {
	loop := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	for _, tc := range []struct {
		id, name string
		trusted  []netip.Prefix
		field    brisk.ForwardingField
		fields   string
		want     string
	}{
		// The peer is 127.0.0.1 in every case; the spoofed address is
		// 127.0.0.1 too, so the untrusted-peer cases use 10.0.0.0/8 as the
		// trusted network.
		{"gin-CVE-2020-28483", "no_trusted_proxies", nil, "", "X-Forwarded-For: 203.0.113.7\r\n", "127.0.0.1"},
		{"fiber-x-real-ip", "untrusted_peer_x_real_ip", []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")},
			brisk.FieldXRealIP, "X-Real-IP: 203.0.113.7\r\n", "127.0.0.1"},
		{"fiber-x-real-ip", "other_fields_ignored", loop, "",
			"X-Real-IP: 203.0.113.7\r\nForwarded: for=203.0.113.8\r\nX-Forwarded-For: 198.51.100.1\r\n", "198.51.100.1"},
		{"CVE-2023-41338", "forged_local_left_of_client", loop, "",
			"X-Forwarded-For: 127.0.0.1, 203.0.113.7\r\n", "203.0.113.7"},
		{"CVE-2023-41338", "forged_local_split_lines", loop, "",
			"X-Forwarded-For: 127.0.0.1\r\nX-Forwarded-For: 203.0.113.7\r\n", "203.0.113.7"},
		{"CVE-2023-41338", "garbage_ends_walk", loop, "",
			"X-Forwarded-For: 127.0.0.1, <script>\r\n", "127.0.0.1"},
		{"fiber-x-real-ip", "every_field_forged", nil, "", spoofFields, "127.0.0.1"},
	} {
		t.Run(tc.id+"/"+tc.name, func(t *testing.T) {
			s := &brisk.Server{TrustedProxies: tc.trusted, ClientIPField: tc.field}
			if got := clientIP(t, s, tc.fields); got != tc.want {
				t.Errorf("ClientIP %s, want %s", got, tc.want)
			}
		})
	}
}

// TestFromHTTPRemoteAddr: a net/http handler on brisk (FromHTTP) sees
// the peer as Request.RemoteAddr whatever forwarding fields the client
// sends, as net/http does (the gin and fiber advisories above, through
// the adaptor).
func TestFromHTTPRemoteAddr(t *testing.T) {
	got := make(chan string, 1)
	addr, _ := serve(t, &brisk.Server{Handler: brisk.FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.RemoteAddr
	}))})
	if a := exchange(t, addr, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n"+spoofFields+"\r\n"); a.status != 200 {
		t.Fatalf("status %d", a.status)
	}
	if ap, err := netip.ParseAddrPort(<-got); err != nil || ap.Addr().String() != "127.0.0.1" || ap.Port() == 0 {
		t.Errorf("RemoteAddr %v (%v), want the peer 127.0.0.1:port", ap, err)
	}
}

// TestCVE_2025_22870_NoProxyZone: x/net/http/httpproxy matched an IPv6
// zone ID against NO_PROXY, so "[fe80::1%25.example.com]" bypassed the
// proxy when NO_PROXY held "*.example.com". ProxyFromEnvironment (read
// once per process: this is the package's only caller) must send it to
// the proxy, and still bypass a host NO_PROXY names.
func TestCVE_2025_22870_NoProxyZone(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://proxy.invalid:3128")
	t.Setenv("NO_PROXY", "*.example.com")
	for host, want := range map[string]bool{
		"[fe80::1%25.example.com]:80": true,
		"[fe80::1%25.example.com]":    true,
		"www.example.com":             false,
		"other.example":               true,
	} {
		u, err := brisk.ProxyFromEnvironment(&url.URL{Scheme: "http", Host: host})
		if got := u != nil; got != want || err != nil {
			t.Errorf("%s: proxy %v (%v), want proxied=%v", host, u, err, want)
		}
	}
}
