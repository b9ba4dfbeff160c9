package brisk

import (
	"net"

	"github.com/pires/go-proxyproto"
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
	h := proxyproto.HeaderProxyFromAddrs(byte(ph.Version), ph.Source, ph.Destination)
	if ph.Source == nil || ph.Destination == nil {
		h.Command = proxyproto.LOCAL
		h.TransportProtocol = proxyproto.UNSPEC
	}
	if len(ph.tlvs) > 0 {
		if err := h.SetTLVs(ph.tlvs); err != nil {
			return err
		}
	}
	_, err := h.WriteTo(nc)
	return err
}

// NewProxyHeader returns a header for ClientConfig.ProxyHeader: version 1
// or 2 (other values mean 2), the client's source address and the
// destination it connected to (both *net.TCPAddr of the same family; nil
// for a LOCAL command, or for v1 "UNKNOWN"), and for version 2 the TLVs
// given as type and value pairs (spec §2.2, e.g. PP2_TYPE_AUTHORITY 0x02).
func NewProxyHeader(version int, src, dst net.Addr, tlvs ...ProxyTLV) *ProxyHeader {
	if version != 1 {
		version = 2
	}
	h := &ProxyHeader{Version: version, Source: src, Destination: dst}
	for _, t := range tlvs {
		h.tlvs = append(h.tlvs, proxyproto.TLV{Type: proxyproto.PP2Type(t.Type), Value: t.Value})
	}
	return h
}

// ProxyTLV is one type-length-value of a PROXY v2 header (spec §2.2).
type ProxyTLV struct {
	Type  byte
	Value []byte
}
