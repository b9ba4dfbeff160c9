package reverseproxy

import (
	"strings"
	"testing"
)

// TestProxyDropsUnderscoreForwarding: an untrusted client's forwarding
// fields spelt with "_" for "-" (X_Forwarded_For, X-Real_IP) are dropped
// as the dashed ones are: CGI, WSGI and PHP upstreams read both as
// HTTP_X_FORWARDED_FOR, and would take the client's word for its address.
// Other names with "_" pass.
func TestProxyDropsUnderscoreForwarding(t *testing.T) {
	addr := front(t, &Proxy{Upstreams: []string{backend(t, echoFields)}})
	resp, body, err := roundTrip(t, addr, "GET / HTTP/1.1\r\nHost: example.com\r\n"+
		"X_Forwarded_For: 6.6.6.6\r\nx-real_ip: 6.6.6.6\r\nX_FORWARDED_HOST: evil\r\nX-Forwarded_Proto: https\r\n"+
		"X_Other: 1\r\n\r\n")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d, err %v", resp.StatusCode, err)
	}
	for _, bad := range []string{"6.6.6.6", "evil", "https"} {
		if strings.Contains(body, bad) {
			t.Errorf("backend got %q:\n%s", bad, body)
		}
	}
	for _, want := range []string{"X-Forwarded-For: 127.0.0.1\n", "X_Other: 1\n"} {
		if !strings.Contains(body, want) {
			t.Errorf("backend did not get %q:\n%s", want, body)
		}
	}
}
