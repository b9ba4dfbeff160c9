//go:build !race

package proxyproto

import "testing"

// TestParseAllocs: scanning and parsing a v1 or v2 TCP header with TLVs
// into a reused Header (a connection's header storage) allocates
// nothing.
func TestParseAllocs(t *testing.T) {
	headers := map[string][]byte{
		"v1_tcp4":     []byte("PROXY TCP4 203.0.113.7 198.51.100.1 4242 443\r\n"),
		"v2_tcp4_tlv": v2Header(0x21, 0x11, append(tcp4Addrs[:12:12], tlv(0x02, "example.com")...)),
		"v2_tcp6":     v2Header(0x21, 0x21, tcp6Addrs),
	}
	for name, b := range headers {
		var h Header
		allocs := testing.AllocsPerRun(100, func() {
			n, _ := Scan(b)
			_ = Parse(b[:n], &h)
		})
		if allocs != 0 || h.Source == nil {
			t.Errorf("%s: %v allocs/op, source %v; want 0 and an address", name, allocs, h.Source)
		}
	}
}
