package brisk

import (
	"net/netip"
	"testing"
)

func clientIPHandler(c *Ctx) { c.Response.WriteString(c.ClientIP().String()) }

func TestClientIP(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("10.0.0.0/8")}
	const spoofedFwd = "Forwarded: for=198.51.100.66\r\n"
	const spoofedXFF = "X-Forwarded-For: 198.51.100.66\r\n"
	const spoofedXRI = "X-Real-IP: 198.51.100.66\r\n"
	cases := []struct {
		name   string
		field  ForwardingField
		fields string
		want   string
	}{
		{"none", "", "", "127.0.0.1"},
		{"xff_one", "", "X-Forwarded-For: 203.0.113.7\r\n", "203.0.113.7"},
		{"xff_rightmost_untrusted", "", "X-Forwarded-For: 198.51.100.66, 203.0.113.7, 10.1.1.1\r\n", "203.0.113.7"},
		{"xff_spoofed_left", "", "X-Forwarded-For: 10.9.9.9, 203.0.113.7\r\n", "203.0.113.7"},
		{"xff_all_trusted", "", "X-Forwarded-For: 10.0.0.5, 10.0.0.6\r\n", "10.0.0.5"},
		{"xff_lines", "", "X-Forwarded-For: 198.51.100.66\r\nX-Forwarded-For: 203.0.113.7, 10.1.1.1\r\n", "203.0.113.7"},
		{"xff_lines_around_other", "", "X-Forwarded-For: 198.51.100.66\r\nVia: 1.1 a\r\nX-Forwarded-For: 203.0.113.7\r\n", "203.0.113.7"},
		{"xff_ows", "", "X-Forwarded-For:  203.0.113.7 ,\t10.1.1.1 \r\n", "203.0.113.7"},
		{"xff_port", "", "X-Forwarded-For: 203.0.113.7:4711\r\n", "203.0.113.7"},
		{"xff_v6", "", "X-Forwarded-For: 2001:db8::7\r\n", "2001:db8::7"},
		{"xff_mapped", "", "X-Forwarded-For: ::ffff:203.0.113.7\r\n", "203.0.113.7"},
		{"xff_garbage_last", "", "X-Forwarded-For: 203.0.113.7, garbage\r\n", "127.0.0.1"},
		{"xff_garbage_behind_trusted", "", "X-Forwarded-For: garbage, 10.1.1.1\r\n", "10.1.1.1"},
		{"xff_explicit", FieldXForwardedFor, "X-Forwarded-For: 203.0.113.7\r\n", "203.0.113.7"},
		// A client's Forwarded or X-Real-IP passed on in front of the
		// X-Forwarded-For its proxy appended to (nginx) is never read.
		{"xff_spoofed_forwarded", "", spoofedFwd + "X-Forwarded-For: 203.0.113.7\r\n", "203.0.113.7"},
		{"xff_spoofed_xri", "", spoofedXRI + "X-Forwarded-For: 203.0.113.7\r\n", "203.0.113.7"},
		{"xff_absent_spoofed_others", "", spoofedFwd + spoofedXRI, "127.0.0.1"},
		{"fwd_for", FieldForwarded, "Forwarded: for=203.0.113.7;proto=https\r\n", "203.0.113.7"},
		{"fwd_quoted_v6_port", FieldForwarded, "Forwarded: For=\"[2001:db8::7]:4711\"\r\n", "2001:db8::7"},
		{"fwd_list", FieldForwarded, "Forwarded: for=198.51.100.66, for=203.0.113.7;by=10.0.0.1, for=10.2.2.2\r\n", "203.0.113.7"},
		{"fwd_lines", FieldForwarded, "Forwarded: for=198.51.100.66\r\nForwarded: for=203.0.113.7, for=10.2.2.2\r\n", "203.0.113.7"},
		{"fwd_unknown", FieldForwarded, "Forwarded: for=unknown, for=10.2.2.2\r\n", "10.2.2.2"},
		{"fwd_obfuscated_last", FieldForwarded, "Forwarded: for=_hidden\r\n", "127.0.0.1"},
		{"fwd_spoofed_xff", FieldForwarded, spoofedXFF + "Forwarded: for=203.0.113.7\r\n", "203.0.113.7"},
		{"fwd_absent_spoofed_xff", FieldForwarded, spoofedXFF, "127.0.0.1"},
		{"xri", FieldXRealIP, "X-Real-IP: 203.0.113.7\r\n", "203.0.113.7"},
		{"xri_bad", FieldXRealIP, "X-Real-IP: nonsense\r\n", "127.0.0.1"},
		{"xri_lines", FieldXRealIP, spoofedXRI + "X-Real-IP: 203.0.113.7\r\n", "203.0.113.7"},
		{"xri_spoofed_xff", FieldXRealIP, spoofedXFF + "X-Real-IP: 203.0.113.7\r\n", "203.0.113.7"},
		{"unknown_field", "X-Client-IP", "X-Client-IP: 203.0.113.7\r\nX-Forwarded-For: 203.0.113.7\r\n", "127.0.0.1"},
	}
	servers := map[ForwardingField]*testServer{}
	for _, tc := range cases {
		if servers[tc.field] == nil {
			servers[tc.field] = startServer(t, "tcp", &Server{Handler: clientIPHandler, TrustedProxies: trusted, ClientIPField: tc.field})
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := servers[tc.field]
			_, body := ts.connect().roundTrip("GET / HTTP/1.1\r\nHost: x\r\n" + tc.fields + "\r\n")
			if body != tc.want {
				t.Fatalf("ClientIP %q, want %q", body, tc.want)
			}
		})
	}
}

func TestClientIPUntrustedPeer(t *testing.T) {
	for name, s := range map[string]*Server{
		"default":       {Handler: clientIPHandler},
		"other_network": {Handler: clientIPHandler, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}},
	} {
		t.Run(name, func(t *testing.T) {
			ts := startServer(t, "tcp", s)
			raw := "GET / HTTP/1.1\r\nHost: x\r\nForwarded: for=203.0.113.7\r\nX-Forwarded-For: 203.0.113.7\r\nX-Real-IP: 203.0.113.7\r\n\r\n"
			if _, body := ts.connect().roundTrip(raw); body != "127.0.0.1" {
				t.Fatalf("ClientIP %q, want the peer 127.0.0.1", body)
			}
		})
	}
}

func TestClientIPAfterProxyHeader(t *testing.T) {
	// PROXY says 10.5.5.5 (a trusted proxy tier); its X-Forwarded-For names the client.
	ts := startServer(t, "tcp", &Server{Handler: clientIPHandler, ProxyProtocol: loopbackOnly(),
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	c := ts.connect()
	c.sendSync("PROXY TCP4 10.5.5.5 10.0.0.1 4242 80\r\n")
	if _, body := c.roundTrip("GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.7\r\n\r\n"); body != "203.0.113.7" {
		t.Fatalf("ClientIP %q, want 203.0.113.7", body)
	}
}
