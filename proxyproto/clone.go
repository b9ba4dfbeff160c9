package proxyproto

import (
	"bytes"
	"net"
)

// Clone returns a copy of h that shares no storage with it: its
// addresses and TLVs stay valid after h is reused for another header.
func (h *Header) Clone() *Header {
	c := &Header{Version: h.Version, tlvs: bytes.Clone(h.tlvs)}
	c.Source = cloneAddr(h.Source)
	c.Destination = cloneAddr(h.Destination)
	return c
}

// cloneAddr returns a copy of a that shares no storage with it.
func cloneAddr(a net.Addr) net.Addr {
	switch a := a.(type) {
	case *net.TCPAddr:
		return &net.TCPAddr{IP: bytes.Clone(a.IP), Port: a.Port, Zone: a.Zone}
	case *net.UnixAddr:
		u := *a
		return &u
	}
	return a
}
