package proxyproto

import (
	"encoding/binary"
	"net"
)

// Header is a PROXY protocol header: what a proxy says about the
// connection it relays. Parse fills one from the bytes a connection
// begins with; NewHeader makes one to send, and Append encodes it.
type Header struct {
	// Version is the protocol version, 1 or 2.
	Version int
	// Source is the client's address, as the proxy accepted it: a
	// *net.TCPAddr, or a *net.UnixAddr for a v2 AF_UNIX stream; nil for a
	// LOCAL command, an UNKNOWN v1 header or a datagram transport.
	Source net.Addr
	// Destination is the address the client connected to; nil like
	// Source.
	Destination net.Addr

	tlvs     []byte      // the v2 TLV vector, well formed (v2.go)
	src, dst net.TCPAddr // storage of Source and Destination
	ips      [32]byte    // storage of their IPs
}

// reset empties h for a new header of the given version, keeping its
// storage.
func (h *Header) reset(version int) {
	*h = Header{Version: version, tlvs: h.tlvs[:0]}
}

// TLV is one type-length-value of a PROXY v2 header (spec §2.2).
type TLV struct {
	Type  byte
	Value []byte
}

// NewHeader returns a header to send (see Append): version 1 or 2
// (other values mean 2), the client's source address and the
// destination it connected to (both *net.TCPAddr of the same family; nil
// for a LOCAL command, or for v1 "UNKNOWN"), and for version 2 the TLVs
// given as type and value pairs (spec §2.2, e.g. PP2_TYPE_AUTHORITY
// 0x02). A value longer than 65535 bytes is cut to that length.
func NewHeader(version int, src, dst net.Addr, tlvs ...TLV) *Header {
	if version != 1 {
		version = 2
	}
	h := &Header{Version: version, Source: src, Destination: dst}
	for _, t := range tlvs {
		v := t.Value[:min(len(t.Value), 0xffff)]
		h.tlvs = binary.BigEndian.AppendUint16(append(h.tlvs, t.Type), uint16(len(v)))
		h.tlvs = append(h.tlvs, v...)
	}
	return h
}

// TLV returns the value of the first v2 TLV of the given type (spec
// §2.2.1, PP2_TYPE_*), or nil when there is none. The value is owned by
// the header.
func (h *Header) TLV(typ byte) []byte { return findTLV(h.tlvs, typ) }

// ALPN returns the application protocol the client negotiated with the
// proxy (PP2_TYPE_ALPN, e.g. "h2"), or nil.
func (h *Header) ALPN() []byte { return h.TLV(pp2TypeALPN) }

// Authority returns the host name the client sent the proxy (TLS SNI;
// PP2_TYPE_AUTHORITY), or "".
func (h *Header) Authority() string { return string(h.TLV(pp2TypeAuthority)) }

// SSL is the PP2_TYPE_SSL TLV of a v2 header (spec §2.2.5): how the
// client connected to the proxy.
type SSL struct {
	// TLS reports that the client connected over TLS (PP2_CLIENT_SSL).
	TLS bool
	// CertVerified reports that the client presented a certificate and
	// the proxy verified it.
	CertVerified bool
	// Version is the TLS version ("TLSv1.3"), Cipher the cipher suite and
	// CommonName the client certificate's subject CN; "" when absent.
	Version, Cipher, CommonName string
}

// SSL returns the first valid PP2_TYPE_SSL TLV (spec §2.2.5), and
// whether the header has one.
func (h *Header) SSL() (SSL, bool) {
	for b := h.tlvs; len(b) > 0; {
		t, v, rest, _ := nextTLV(b)
		if t == pp2TypeSSL {
			if s, ok := parseSSL(v); ok {
				return s, true
			}
		}
		b = rest
	}
	return SSL{}, false
}
