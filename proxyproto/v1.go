package proxyproto

import (
	"bytes"
	"net/netip"
)

// parseV1 decodes b, one whole v1 line with its CRLF (spec §2.1):
// "PROXY TCP4|TCP6 <src> <dst> <sport> <dport>\r\n", fields separated by
// exactly one space, addresses of the family named, ports decimal without
// a leading zero; or "PROXY UNKNOWN", the rest of the line ignored, which
// leaves h.Source and h.Destination nil.
func parseV1(b []byte, h *Header) error {
	line, ok := bytes.CutSuffix(b, []byte("\r\n"))
	if !ok {
		return ErrInvalidV1
	}
	line, ok = bytes.CutPrefix(line, []byte("PROXY "))
	if !ok {
		return ErrInvalidV1
	}
	proto, line := cutSpace(line)
	switch string(proto) {
	case "UNKNOWN":
		return nil
	case "TCP4", "TCP6":
	default:
		return ErrInvalidV1
	}
	var f [4][]byte
	for i := range f {
		if f[i], line = cutSpace(line); len(f[i]) == 0 {
			return ErrInvalidV1
		}
	}
	if line != nil { // a fifth space
		return ErrInvalidV1
	}
	v6 := proto[3] == '6'
	src, ok1 := parseV1IP(f[0], v6)
	dst, ok2 := parseV1IP(f[1], v6)
	sport, ok3 := parseV1Port(f[2])
	dport, ok4 := parseV1Port(f[3])
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return ErrInvalidV1
	}
	var ips [32]byte
	n := 4
	if v6 {
		n = 16
		s, d := src.As16(), dst.As16()
		copy(ips[:], s[:])
		copy(ips[16:], d[:])
	} else {
		s, d := src.As4(), dst.As4()
		copy(ips[:], s[:])
		copy(ips[4:], d[:])
	}
	ports := [4]byte{byte(sport >> 8), byte(sport), byte(dport >> 8), byte(dport)}
	h.setTCP(ips[:2*n], n, ports[:])
	return nil
}

// cutSpace splits b at its first space: the field before it and the rest
// after it; rest is nil when b has no space.
func cutSpace(b []byte) (field, rest []byte) {
	if i := bytes.IndexByte(b, ' '); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

// parseV1IP parses a v1 address: dotted-quad IPv4 for TCP4, an IPv6
// literal without zone (an IPv4-mapped one included) for TCP6.
func parseV1IP(b []byte, v6 bool) (netip.Addr, bool) {
	if !v6 {
		return parseIPv4(b)
	}
	if len(b) > len("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255") || bytes.IndexByte(b, ':') < 0 {
		return netip.Addr{}, false
	}
	a, err := netip.ParseAddr(string(b))
	return a, err == nil && a.Is6() && a.Zone() == ""
}

// parseIPv4 parses a dotted-quad IPv4 address: four decimal octets of at
// most 255, no leading zero (as netip.ParseAddr).
func parseIPv4(b []byte) (netip.Addr, bool) {
	var ip [4]byte
	for i := range ip {
		if i > 0 {
			if len(b) == 0 || b[0] != '.' {
				return netip.Addr{}, false
			}
			b = b[1:]
		}
		v, n := leadingDecimal(b, 3)
		if n == 0 || v > 255 {
			return netip.Addr{}, false
		}
		ip[i], b = byte(v), b[n:]
	}
	return netip.AddrFrom4(ip), len(b) == 0
}

// parseV1Port parses a decimal port, 0 to 65535, without a leading zero.
func parseV1Port(b []byte) (int, bool) {
	v, n := leadingDecimal(b, 5)
	return v, n > 0 && n == len(b) && v <= 65535
}

// leadingDecimal parses the decimal number of at most max digits at the
// start of b, returning it and its length; 0 digits when b does not start
// with one, or starts with a zero followed by another digit.
func leadingDecimal(b []byte, max int) (v, n int) {
	for n < len(b) && n < max && '0' <= b[n] && b[n] <= '9' {
		v = v*10 + int(b[n]-'0')
		n++
	}
	if n > 1 && b[0] == '0' {
		return 0, 0
	}
	return v, n
}
