package brisk

import (
	"encoding/binary"
	"net"
)

// writeProxyHeader sends the PROXY header ClientConfig.ProxyHeader asks
// for on a new connection nc, before anything else (and before TLS).
func (c *ClientConfig) writeProxyHeader(nc net.Conn) error {
	if c.ProxyHeader == nil {
		return nil
	}
	ph := c.ProxyHeader(nc)
	if ph == nil {
		return nil
	}
	b, err := appendProxyHeader(nil, ph)
	if err != nil {
		return err
	}
	_, err = nc.Write(b)
	return err
}

// NewProxyHeader returns a header for ClientConfig.ProxyHeader: version 1
// or 2 (other values mean 2), the client's source address and the
// destination it connected to (both *net.TCPAddr of the same family; nil
// for a LOCAL command, or for v1 "UNKNOWN"), and for version 2 the TLVs
// given as type and value pairs (spec §2.2, e.g. PP2_TYPE_AUTHORITY 0x02).
// A value longer than 65535 bytes is cut to that length.
func NewProxyHeader(version int, src, dst net.Addr, tlvs ...ProxyTLV) *ProxyHeader {
	if version != 1 {
		version = 2
	}
	h := &ProxyHeader{Version: version, Source: src, Destination: dst}
	for _, t := range tlvs {
		v := t.Value[:min(len(t.Value), 0xffff)]
		h.tlvs = binary.BigEndian.AppendUint16(append(h.tlvs, t.Type), uint16(len(v)))
		h.tlvs = append(h.tlvs, v...)
	}
	return h
}

// ProxyTLV is one type-length-value of a PROXY v2 header (spec §2.2).
type ProxyTLV struct {
	Type  byte
	Value []byte
}
