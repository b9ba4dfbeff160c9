package proxyproto

import (
	"encoding/binary"
	"fmt"
	"net"
	"strings"
	"testing"
)

// v2Header encodes a v2 header with the given command, family and body.
func v2Header(cmd, fam byte, body []byte) []byte {
	b := append([]byte(sigV2), cmd, fam)
	b = binary.BigEndian.AppendUint16(b, uint16(len(body)))
	return append(b, body...)
}

var (
	tcp4Addrs = []byte{203, 0, 113, 7, 198, 51, 100, 1, 0x10, 0x92, 0x01, 0xbb}
	tcp6Addrs = append(append(make([]byte, 0, 36),
		0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7,
		0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1), 0x10, 0x92, 0x01, 0xbb)
)

// tlv encodes one TLV.
func tlv(typ byte, v string) []byte {
	return append([]byte{typ, byte(len(v) >> 8), byte(len(v))}, v...)
}

// parseProxy parses one whole header as the accept path does: Scan finds
// it whole, Parse decodes it.
func parseProxy(b []byte) (*Header, error) {
	n, scan := Scan(b)
	if scan != Found || n != len(b) {
		return nil, fmt.Errorf("scan: %d of %d bytes, %d", n, len(b), scan)
	}
	h := new(Header)
	return h, Parse(b, h)
}

func describe(h *Header) string {
	ssl, ok := h.SSL()
	return fmt.Sprintf("v%d %v -> %v alpn=%q authority=%q ssl=%v/%+v", h.Version, h.Source, h.Destination, h.ALPN(), h.Authority(), ok, ssl)
}

func TestParse(t *testing.T) {
	tlvs := append(append(tlv(0x01, "h2"), tlv(0x04, "pad")...), tlv(0x02, "example.com")...)
	sslv := append([]byte{0x01, 0, 0, 0, 0}, append(tlv(0x21, "TLSv1.3"), tlv(0x23, "AES")...)...)
	ssl := append([]byte{0x20, 0, byte(len(sslv))}, sslv...)
	badSSL := []byte{0x20, 0, 5, 0x01, 0, 0, 0, 0} // TLS without its version
	unix := make([]byte, 216)
	copy(unix, "/run/a.sock")
	copy(unix[108:], "/run/b.sock")
	cases := []struct {
		name, header, want string
	}{
		{"v1_tcp4", "PROXY TCP4 203.0.113.7 198.51.100.1 4242 443\r\n", `v1 203.0.113.7:4242 -> 198.51.100.1:443 alpn="" authority="" ssl=false/{TLS:false CertVerified:false Version: Cipher: CommonName:}`},
		{"v1_tcp6", "PROXY TCP6 2001:db8::7 ::ffff:198.51.100.1 0 65535\r\n", "v1 [2001:db8::7]:0 -> 198.51.100.1:65535"},
		{"v1_unknown", "PROXY UNKNOWN\r\n", "v1 <nil> -> <nil>"},
		{"v1_unknown_addresses", "PROXY UNKNOWN ffff:f::f ffff:f::f 65535 65535\r\n", "v1 <nil> -> <nil>"},
		{"v2_tcp4", string(v2Header(0x21, 0x11, tcp4Addrs)), "v2 203.0.113.7:4242 -> 198.51.100.1:443"},
		{"v2_tcp6", string(v2Header(0x21, 0x21, tcp6Addrs)), "v2 [2001:db8::7]:4242 -> [2001:db8::1]:443"},
		{"v2_tlvs", string(v2Header(0x21, 0x11, append(tcp4Addrs[:12:12], tlvs...))), `v2 203.0.113.7:4242 -> 198.51.100.1:443 alpn="h2" authority="example.com"`},
		{"v2_ssl", string(v2Header(0x21, 0x21, append(tcp6Addrs[:36:36], ssl...))), `ssl=true/{TLS:true CertVerified:true Version:TLSv1.3 Cipher:AES CommonName:}`},
		{"v2_ssl_invalid", string(v2Header(0x21, 0x11, append(tcp4Addrs[:12:12], badSSL...))), `ssl=false/`},
		{"v2_local", string(v2Header(0x20, 0x00, nil)), "v2 <nil> -> <nil>"},
		{"v2_local_tcp4", string(v2Header(0x20, 0x11, tcp4Addrs)), "v2 <nil> -> <nil>"},
		{"v2_local_short", string(v2Header(0x20, 0x11, tcp4Addrs[:4])), "v2 <nil> -> <nil>"},
		{"v2_udp4", string(v2Header(0x21, 0x12, tcp4Addrs)), "v2 <nil> -> <nil>"},
		{"v2_unix", string(v2Header(0x21, 0x31, unix)), "v2 /run/a.sock -> /run/b.sock"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, err := parseProxy([]byte(tc.header))
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(h); !strings.Contains(got, tc.want) {
				t.Fatalf("got\n %s\nwant\n %s", got, tc.want)
			}
		})
	}
}

func TestParseInvalid(t *testing.T) {
	cases := []struct {
		name, header string
		err          error
	}{
		{"v1_lf_only", "PROXY TCP4 203.0.113.7 198.51.100.1 4242 443\n", ErrInvalidV1},
		{"v1_lone_lf_unknown", "PROXY UNKNOWN\n", ErrInvalidV1},
		{"v1_proto", "PROXY UDP4 203.0.113.7 198.51.100.1 4242 443\r\n", ErrInvalidV1},
		{"v1_two_spaces", "PROXY TCP4  203.0.113.7 198.51.100.1 4242 443\r\n", ErrInvalidV1},
		{"v1_trailing_space", "PROXY TCP4 203.0.113.7 198.51.100.1 4242 443 \r\n", ErrInvalidV1},
		{"v1_missing_port", "PROXY TCP4 203.0.113.7 198.51.100.1 4242\r\n", ErrInvalidV1},
		{"v1_v6_in_tcp4", "PROXY TCP4 2001:db8::7 198.51.100.1 4242 443\r\n", ErrInvalidV1},
		{"v1_v4_in_tcp6", "PROXY TCP6 203.0.113.7 198.51.100.1 4242 443\r\n", ErrInvalidV1},
		{"v1_zone", "PROXY TCP6 fe80::1%eth0 2001:db8::1 4242 443\r\n", ErrInvalidV1},
		{"v1_octet_256", "PROXY TCP4 203.0.113.256 198.51.100.1 4242 443\r\n", ErrInvalidV1},
		{"v1_octet_leading_zero", "PROXY TCP4 203.0.113.07 198.51.100.1 4242 443\r\n", ErrInvalidV1},
		{"v1_three_octets", "PROXY TCP4 203.0.113 198.51.100.1 4242 443\r\n", ErrInvalidV1},
		{"v1_port_leading_zero", "PROXY TCP4 203.0.113.7 198.51.100.1 04242 443\r\n", ErrInvalidV1},
		{"v1_port_65536", "PROXY TCP4 203.0.113.7 198.51.100.1 65536 443\r\n", ErrInvalidV1},
		{"v1_port_sign", "PROXY TCP4 203.0.113.7 198.51.100.1 +4242 443\r\n", ErrInvalidV1},
		{"v1_unknownx", "PROXY UNKNOWNX\r\n", ErrInvalidV1},
		{"v2_version_3", string(v2Header(0x31, 0x11, tcp4Addrs)), ErrV2Command},
		{"v2_command_2", string(v2Header(0x22, 0x11, tcp4Addrs)), ErrV2Command},
		{"v2_family_13", string(v2Header(0x21, 0x13, tcp4Addrs)), ErrV2Family},
		{"v2_proxy_unspec", string(v2Header(0x21, 0x00, nil)), ErrV2Family},
		{"v2_tcp4_short", string(v2Header(0x21, 0x11, tcp4Addrs[:11])), ErrV2Length},
		{"v2_tcp6_as_tcp4_length", string(v2Header(0x21, 0x21, tcp4Addrs)), ErrV2Length},
		{"v2_truncated_tlv", string(v2Header(0x21, 0x11, append(tcp4Addrs[:12:12], 0x01, 0x00, 0x05, 'h'))), ErrTruncatedTLV},
		{"v2_tlv_no_length", string(v2Header(0x21, 0x11, append(tcp4Addrs[:12:12], 0x01))), ErrTruncatedTLV},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if h, err := parseProxy([]byte(tc.header)); err != tc.err {
				t.Fatalf("error %v, want %v (header %v)", err, tc.err, h)
			}
		})
	}
}

// TestRoundTrip: what the client sends, the server reads back.
func TestRoundTrip(t *testing.T) {
	src4, dst4 := mustTCPAddr("203.0.113.7:4242"), mustTCPAddr("198.51.100.1:443")
	src6, dst6 := mustTCPAddr("[2001:db8::7]:1"), mustTCPAddr("[2001:db8::1]:65535")
	alpn := TLV{Type: 0x01, Value: []byte("h2")}
	cases := []struct {
		name string
		h    *Header
		want string
	}{
		{"v1_tcp4", NewHeader(1, src4, dst4), "v1 203.0.113.7:4242 -> 198.51.100.1:443"},
		{"v1_tcp6", NewHeader(1, src6, dst6), "v1 [2001:db8::7]:1 -> [2001:db8::1]:65535"},
		{"v1_mixed", NewHeader(1, src4, dst6), "v1 203.0.113.7:4242 -> [2001:db8::1]:65535"},
		{"v1_unknown", NewHeader(1, nil, nil), "v1 <nil> -> <nil>"},
		{"v2_tcp4_alpn", NewHeader(2, src4, dst4, alpn), `v2 203.0.113.7:4242 -> 198.51.100.1:443 alpn="h2"`},
		{"v2_tcp6", NewHeader(2, src6, dst6), "v2 [2001:db8::7]:1 -> [2001:db8::1]:65535"},
		{"v2_local_alpn", NewHeader(2, nil, nil, alpn), `v2 <nil> -> <nil> alpn="h2"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Append(nil, tc.h)
			if err != nil {
				t.Fatal(err)
			}
			h, err := parseProxy(b)
			if err != nil {
				t.Fatalf("%q: %v", b, err)
			}
			if got := describe(h); !strings.Contains(got, tc.want) {
				t.Fatalf("%q read back as\n %s\nwant\n %s", b, got, tc.want)
			}
		})
	}
}

// FuzzParse: no input panics, and a header accepted, sent again as the
// client sends it, reads back the same.
func FuzzParse(f *testing.F) {
	f.Add([]byte("PROXY TCP4 203.0.113.7 198.51.100.1 4242 443\r\n"))
	f.Add([]byte("PROXY TCP6 2001:db8::7 2001:db8::1 4242 443\r\n"))
	f.Add([]byte("PROXY UNKNOWN\r\n"))
	f.Add(v2Header(0x21, 0x11, append(tcp4Addrs[:12:12], tlv(0x01, "h2")...)))
	f.Add(v2Header(0x21, 0x21, tcp6Addrs))
	f.Add(v2Header(0x20, 0x00, nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		Parse(b, new(Header)) // any input: no panic
		n, scan := Scan(b)
		if scan != Found {
			return
		}
		h, err := parseProxy(b[:n])
		if err != nil {
			return
		}
		h.SSL()
		if _, tcp := h.Source.(*net.TCPAddr); h.Source != nil && !tcp {
			return // the client sends TCP headers only
		}
		again, err := Append(nil, h)
		if err != nil {
			t.Fatalf("%q: accepted, then not encodable: %v", b[:n], err)
		}
		h2, err := parseProxy(again)
		if err != nil {
			t.Fatalf("%q sent again as %q: %v", b[:n], again, err)
		}
		if d1, d2 := describe(h), describe(h2); d1 != d2 {
			t.Fatalf("%q: %s\nsent again as %q: %s", b[:n], d1, again, d2)
		}
	})
}

func mustTCPAddr(s string) *net.TCPAddr {
	a, err := net.ResolveTCPAddr("tcp", s)
	if err != nil {
		panic(err)
	}
	return a
}

// TestScan: the start of a connection's input is a prefix of a header,
// a whole one, not one, or one that cannot be valid.
func TestScan(t *testing.T) {
	v1 := "PROXY TCP4 203.0.113.7 198.51.100.1 4242 443\r\n"
	v2 := string(v2Header(0x21, 0x11, tcp4Addrs))
	cases := []struct {
		name, input string
		n           int
		want        ScanResult
	}{
		{"empty", "", 0, NeedMore},
		{"v1_prefix", v1[:20], 0, NeedMore},
		{"v1_sig_prefix", "PROX", 0, NeedMore},
		{"v1", v1, len(v1), Found},
		{"v1_then_request", v1 + "GET / HTTP/1.1\r\n", len(v1), Found},
		{"v1_too_long", "PROXY TCP4 " + strings.Repeat("1", 120), 0, Invalid},
		{"v2_sig_prefix", v2[:8], 0, NeedMore},
		{"v2_fixed_part", v2[:16], len(v2), NeedMore},
		{"v2", v2, len(v2), Found},
		{"v2_then_request", v2 + "GET /", len(v2), Found},
		{"request", "GET / HTTP/1.1\r\n", 0, NotProxy},
		{"p_not_proxy", "POST / HTTP/1.1\r\n", 0, NotProxy},
		{"cr_not_v2", "\r\nGET /", 0, NotProxy},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if n, r := Scan([]byte(tc.input)); n != tc.n || r != tc.want {
				t.Fatalf("Scan = %d, %d; want %d, %d", n, r, tc.n, tc.want)
			}
		})
	}
}

// TestParseNotHeader: Parse refuses bytes that are not one whole header
// as Scan finds it, without reading past them.
func TestParseNotHeader(t *testing.T) {
	v1 := "PROXY TCP4 203.0.113.7 198.51.100.1 4242 443\r\n"
	v2 := string(v2Header(0x21, 0x11, tcp4Addrs))
	for name, input := range map[string]string{
		"empty":           "",
		"v1_prefix":       v1[:20],
		"v1_then_bytes":   v1 + "GET",
		"v2_fixed_part":   v2[:16],
		"v2_short":        v2[:len(v2)-1],
		"v2_then_bytes":   v2 + "GET",
		"request":         "GET / HTTP/1.1\r\n",
		"v1_without_line": "PROXY TCP4 " + strings.Repeat("1", 120),
	} {
		if err := Parse([]byte(input), new(Header)); err != ErrNotHeader {
			t.Errorf("%s: error %v, want ErrNotHeader", name, err)
		}
	}
}
