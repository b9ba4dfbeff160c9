package brisk

import (
	"encoding/binary"
	"net"

	"github.com/pires/go-proxyproto"
)

// v2 header bytes 12 and 13 (PROXY spec §2.2) that parseProxyV2Stream
// decodes itself; every other header goes to go-proxyproto.
const (
	v2CmdProxy = 0x21 // version 2, PROXY command
	v2TCP4     = 0x11 // AF_INET, STREAM: 12 address bytes
	v2TCP6     = 0x21 // AF_INET6, STREAM: 36 address bytes
)

// parseProxyV2Stream decodes the header a load balancer sends for nearly
// every connection: v2, PROXY command, TCP over IPv4 or IPv6, with any
// TLVs. It reports ok false for any other header (LOCAL, UDP, UNIX, v1),
// which the library parses, and an error for a TCP one that is invalid.
//
// It exists because go-proxyproto's parser costs about 2.5 µs per
// connection (allocations, and stack growth of the fresh connection
// goroutine), 8 to 18 % of the CPU brisk spends on a short connection
// behind HAProxy (BenchmarkServerAcceptProxyV2, internal/lb): one
// allocation here holds the header and both addresses.
func parseProxyV2Stream(b []byte) (ph *ProxyHeader, ok bool, err error) {
	if len(b) < 16 || b[12] != v2CmdProxy || (b[13] != v2TCP4 && b[13] != v2TCP6) {
		return nil, false, nil
	}
	ipLen := 4
	if b[13] == v2TCP6 {
		ipLen = 16
	}
	addrs := b[16:]
	if len(addrs) < 2*ipLen+4 {
		return nil, true, proxyproto.ErrInvalidLength
	}
	ph = &ProxyHeader{Version: 2}
	copy(ph.ips[:], addrs[:2*ipLen])
	ph.src = net.TCPAddr{IP: ph.ips[:ipLen:ipLen], Port: int(binary.BigEndian.Uint16(addrs[2*ipLen:]))}
	ph.dst = net.TCPAddr{IP: ph.ips[ipLen : 2*ipLen : 2*ipLen], Port: int(binary.BigEndian.Uint16(addrs[2*ipLen+2:]))}
	ph.Source, ph.Destination = &ph.src, &ph.dst
	if rest := addrs[2*ipLen+4:]; len(rest) > 0 {
		if ph.tlvs, err = proxyproto.SplitTLVs(rest); err != nil {
			return nil, true, err
		}
	}
	return ph, true, nil
}
