package brisk

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// v2Header encodes a v2 header with the given command, family and body.
func v2Header(cmd, fam byte, body []byte) []byte {
	b := append([]byte("\r\n\r\n\x00\r\nQUIT\n"), cmd, fam)
	b = binary.BigEndian.AppendUint16(b, uint16(len(body)))
	return append(b, body...)
}

// TestParseProxyV2StreamMatchesLibrary: the fast path decodes TCP headers
// exactly as go-proxyproto does, and leaves every other one to it.
func TestParseProxyV2StreamMatchesLibrary(t *testing.T) {
	tcp4 := []byte{203, 0, 113, 7, 198, 51, 100, 1, 0x10, 0x92, 0x01, 0xbb}
	tcp6 := append(append(make([]byte, 0, 36),
		0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7,
		0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1), 0x10, 0x92, 0x01, 0xbb)
	tlvs := append(append(tlv(0x01, "h2"), tlv(0x04, "pad")...), tlv(0x02, "example.com")...)
	cases := []struct {
		name   string
		header []byte
		fast   bool // decoded by parseProxyV2Stream
	}{
		{"tcp4", v2Header(0x21, 0x11, tcp4), true},
		{"tcp6", v2Header(0x21, 0x21, tcp6), true},
		{"tcp4_tlvs", v2Header(0x21, 0x11, append(tcp4[:12:12], tlvs...)), true},
		{"tcp6_tlvs", v2Header(0x21, 0x21, append(tcp6[:36:36], tlvs...)), true},
		{"tcp4_short", v2Header(0x21, 0x11, tcp4[:11]), true},
		{"tcp6_as_tcp4_length", v2Header(0x21, 0x21, tcp4), true},
		{"tcp4_truncated_tlv", v2Header(0x21, 0x11, append(tcp4[:12:12], 0x01, 0x00, 0x05, 'h')), true},
		{"tcp4_tlv_no_length", v2Header(0x21, 0x11, append(tcp4[:12:12], 0x01)), true},
		{"local", v2Header(0x20, 0x00, nil), false},
		{"udp4", v2Header(0x21, 0x12, tcp4), false},
		{"bad_version", v2Header(0x31, 0x11, tcp4), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lib, libErr := parseProxyHeaderLib(tc.header)
			got, ok, err := parseProxyV2Stream(tc.header)
			if ok != tc.fast {
				t.Fatalf("fast path taken %v, want %v", ok, tc.fast)
			}
			if !ok {
				return
			}
			if (err == nil) != (libErr == nil) {
				t.Fatalf("error %v, library's %v", err, libErr)
			}
			if err != nil {
				return
			}
			if s, l := describe(got), describe(lib); s != l {
				t.Fatalf("decoded\n %s\nlibrary\n %s", s, l)
			}
		})
	}
}

func describe(h *ProxyHeader) string {
	return fmt.Sprintf("v%d %v -> %v alpn=%q authority=%q tlvs=%d", h.Version, h.Source, h.Destination, h.ALPN(), h.Authority(), len(h.tlvs))
}
