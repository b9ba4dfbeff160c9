package proxyproto

import (
	"encoding/binary"
	"net"
	"net/netip"
	"strconv"
)

// Append appends h encoded (spec §2.1 for version 1, §2.2 otherwise) to
// b and returns the extended slice. Source and Destination both
// *net.TCPAddr give a TCP4 header when both IPs are IPv4 (mapped ones
// included), else TCP6; any other pair gives v1 "UNKNOWN" or a v2 LOCAL
// command, with the TLVs. On an error (ErrAddress, ErrTLVTooLong) b is
// returned unchanged.
func Append(b []byte, h *Header) ([]byte, error) {
	src, ok1 := h.Source.(*net.TCPAddr)
	dst, ok2 := h.Destination.(*net.TCPAddr)
	tcp := ok1 && ok2 && src != nil && dst != nil
	v4 := tcp && src.IP.To4() != nil && dst.IP.To4() != nil
	if tcp && (!validPort(src.Port) || !validPort(dst.Port) || src.IP.To16() == nil || dst.IP.To16() == nil) {
		return b, ErrAddress
	}
	if h.Version == 1 {
		return appendV1(b, tcp, v4, src, dst), nil
	}
	if len(h.tlvs) > 0xffff-36 {
		return b, ErrTLVTooLong
	}
	b = append(b, sigV2...)
	switch {
	case !tcp:
		b = append(b, v2CmdLocal, v2Unspec)
		b = binary.BigEndian.AppendUint16(b, uint16(len(h.tlvs)))
	case v4:
		b = append(b, v2CmdProxy, v2TCP4)
		b = binary.BigEndian.AppendUint16(b, uint16(12+len(h.tlvs)))
		b = append(append(b, src.IP.To4()...), dst.IP.To4()...)
	default:
		b = append(b, v2CmdProxy, v2TCP6)
		b = binary.BigEndian.AppendUint16(b, uint16(36+len(h.tlvs)))
		b = append(append(b, src.IP.To16()...), dst.IP.To16()...)
	}
	if tcp {
		b = binary.BigEndian.AppendUint16(b, uint16(src.Port))
		b = binary.BigEndian.AppendUint16(b, uint16(dst.Port))
	}
	return append(b, h.tlvs...), nil
}

// appendV1 appends a v1 line.
func appendV1(b []byte, tcp, v4 bool, src, dst *net.TCPAddr) []byte {
	if !tcp {
		return append(b, "PROXY UNKNOWN\r\n"...)
	}
	b = append(b, "PROXY TCP6 "...)
	s, _ := netip.AddrFromSlice(src.IP.To16())
	d, _ := netip.AddrFromSlice(dst.IP.To16())
	if v4 {
		b[len(b)-2] = '4'
		s, d = s.Unmap(), d.Unmap()
	}
	b = append(s.AppendTo(b), ' ')
	b = append(d.AppendTo(b), ' ')
	b = append(strconv.AppendInt(b, int64(src.Port), 10), ' ')
	return append(strconv.AppendInt(b, int64(dst.Port), 10), "\r\n"...)
}

func validPort(p int) bool { return 0 <= p && p <= 0xffff }
