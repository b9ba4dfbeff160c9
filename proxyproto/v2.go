package proxyproto

import (
	"encoding/binary"
	"net"
	"unicode/utf8"
)

// sigV2 is the 12-byte signature of a v2 header (PROXY spec §2.2).
const sigV2 = "\r\n\r\n\x00\r\nQUIT\n"

// v2 header byte 12 (version and command) and byte 13 (address family and
// transport protocol) that the spec defines (§2.2); every other value is
// refused.
const (
	v2CmdLocal = 0x20 // version 2, LOCAL: a connection the proxy made itself
	v2CmdProxy = 0x21 // version 2, PROXY: a connection relayed for a client

	v2Unspec   = 0x00 // no address
	v2TCP4     = 0x11 // AF_INET, STREAM: 12 address bytes
	v2UDP4     = 0x12 // AF_INET, DGRAM
	v2TCP6     = 0x21 // AF_INET6, STREAM: 36 address bytes
	v2UDP6     = 0x22 // AF_INET6, DGRAM
	v2UnixStr  = 0x31 // AF_UNIX, STREAM: 216 address bytes
	v2UnixDgrm = 0x32 // AF_UNIX, DGRAM
)

// PP2 TLV types (spec §2.2.1, §2.2.5) that Header decodes.
const (
	pp2TypeALPN      = 0x01
	pp2TypeAuthority = 0x02
	pp2TypeSSL       = 0x20
	pp2SubSSLVersion = 0x21
	pp2SubSSLCN      = 0x22
	pp2SubSSLCipher  = 0x23
	pp2ClientSSL     = 0x01 // pp2_tlv_ssl.client bit: connected over TLS
)

// v2AddrLen is the length of the address block of a v2 family byte, and
// whether the byte is one the spec defines.
func v2AddrLen(fam byte) (int, bool) {
	switch fam {
	case v2Unspec:
		return 0, true
	case v2TCP4, v2UDP4:
		return 12, true
	case v2TCP6, v2UDP6:
		return 36, true
	case v2UnixStr, v2UnixDgrm:
		return 216, true
	}
	return 0, false
}

// parseV2 decodes b, one whole v2 header (its length as its bytes 14
// and 15 say, see Scan), into h, copying what it keeps: b may
// be reused once it returns. A TCP source and destination become
// h.Source and h.Destination; a LOCAL command, UDP and UNSPEC leave them
// nil, as does a LOCAL header whose length is short of its family's
// address block (the spec says to skip it). The TLV vector must be well
// formed.
func parseV2(b []byte, h *Header) error {
	cmd, fam := b[12], b[13]
	if cmd != v2CmdLocal && cmd != v2CmdProxy {
		return ErrV2Command
	}
	n, ok := v2AddrLen(fam)
	if !ok || (fam == v2Unspec && cmd == v2CmdProxy) {
		return ErrV2Family
	}
	body := b[16:]
	if len(body) < n {
		if cmd == v2CmdLocal {
			return nil
		}
		return ErrV2Length
	}
	if err := checkTLVs(body[n:]); err != nil {
		return err
	}
	h.tlvs = append(h.tlvs[:0], body[n:]...)
	if cmd != v2CmdProxy {
		return nil
	}
	switch fam {
	case v2TCP4:
		h.setTCP(body[:8], 4, body[8:12])
	case v2TCP6:
		h.setTCP(body[:32], 16, body[32:36])
	case v2UnixStr:
		h.Source = &net.UnixAddr{Name: unixName(body[:108]), Net: "unix"}
		h.Destination = &net.UnixAddr{Name: unixName(body[108:216]), Net: "unix"}
	}
	return nil
}

// setTCP sets Source and Destination to TCP addresses in h's own storage:
// ips is both IPs of ipLen bytes, ports both big-endian ports.
func (h *Header) setTCP(ips []byte, ipLen int, ports []byte) {
	copy(h.ips[:], ips)
	h.src = net.TCPAddr{IP: h.ips[:ipLen:ipLen], Port: int(binary.BigEndian.Uint16(ports))}
	h.dst = net.TCPAddr{IP: h.ips[ipLen : 2*ipLen : 2*ipLen], Port: int(binary.BigEndian.Uint16(ports[2:]))}
	h.Source, h.Destination = &h.src, &h.dst
}

// unixName is a NUL-padded AF_UNIX path.
func unixName(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// checkTLVs reports whether b is a sequence of whole TLVs (spec §2.2).
func checkTLVs(b []byte) error {
	for len(b) > 0 {
		_, _, rest, ok := nextTLV(b)
		if !ok {
			return ErrTruncatedTLV
		}
		b = rest
	}
	return nil
}

// nextTLV splits the first TLV off b: its type, its value (aliasing b)
// and the rest; ok is false when b is shorter than the TLV says.
func nextTLV(b []byte) (typ byte, value, rest []byte, ok bool) {
	if len(b) < 3 {
		return 0, nil, nil, false
	}
	n := 3 + int(binary.BigEndian.Uint16(b[1:3]))
	if len(b) < n {
		return 0, nil, nil, false
	}
	return b[0], b[3:n], b[n:], true
}

// findTLV returns the value of the first TLV of type typ in the
// well-formed vector b, or nil.
func findTLV(b []byte, typ byte) []byte {
	for len(b) > 0 {
		t, v, rest, ok := nextTLV(b)
		if !ok {
			return nil
		}
		if t == typ {
			return v
		}
		b = rest
	}
	return nil
}

// parseSSL decodes a PP2_TYPE_SSL value (spec §2.2.5): client byte,
// verify word, then sub-TLVs, of which the version must be there, as
// non-empty ASCII, when the client bit says TLS; the cipher must be
// non-empty ASCII and the CN non-empty UTF-8 when present.
func parseSSL(v []byte) (SSL, bool) {
	if len(v) < 5 {
		return SSL{}, false
	}
	s := SSL{TLS: v[0]&pp2ClientSSL != 0, CertVerified: binary.BigEndian.Uint32(v[1:5]) == 0}
	versionFound := !s.TLS
	for sub := v[5:]; len(sub) > 0; {
		t, val, rest, ok := nextTLV(sub)
		if !ok {
			return SSL{}, false
		}
		sub = rest
		switch t {
		case pp2SubSSLVersion, pp2SubSSLCipher:
			if !nonEmptyASCII(val) {
				return SSL{}, false
			}
			if t == pp2SubSSLVersion {
				s.Version, versionFound = firstString(s.Version, val), true
			} else {
				s.Cipher = firstString(s.Cipher, val)
			}
		case pp2SubSSLCN:
			if len(val) == 0 || !utf8.Valid(val) {
				return SSL{}, false
			}
			s.CommonName = firstString(s.CommonName, val)
		}
	}
	return s, versionFound
}

// firstString keeps the first of repeated sub-TLVs: cur unless it is
// empty, else v as a string.
func firstString(cur string, v []byte) string {
	if cur != "" {
		return cur
	}
	return string(v)
}

func nonEmptyASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return len(b) > 0
}
