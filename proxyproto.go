package brisk

import (
	"net"
	"net/netip"
	"time"

	"github.com/brisk-http/brisk/proxyproto"
)

// DefaultProxyHeaderTimeout is the time a trusted proxy has to send its
// PROXY header when ProxyProtocol.HeaderTimeout is zero.
const DefaultProxyHeaderTimeout = 2 * time.Second

// ProxyProtocol configures the PROXY protocol (HAProxy's "The PROXY
// protocol" specification, versions 1 and 2) on a Server's connections,
// by which a load balancer passes on the address of the client it accepted.
//
// A connection whose source address is in Trusted must begin with a valid
// PROXY header (text v1 or binary v2), read within HeaderTimeout; without
// one (no header, a malformed one, a v2 header longer than the Server's
// MaxHeaderBytes, or a timeout) it is closed without a response. Its
// Ctx.RemoteAddr is then the header's source address and Ctx.PeerAddr
// the proxy's. A v2 LOCAL command (a proxy's health check) or a v1
// "UNKNOWN" header carries no address: such a connection reports the
// proxy's address.
//
// Headers are parsed strictly, as the specification says (see
// proxyproto.Parse): v1 fields separated by single spaces, addresses of
// the family named (no zone), ports without a leading zero, CRLF within
// 107 bytes; v2 commands and address families the specification
// defines, an address block as long as its family's, and a TLV vector of
// whole TLVs.
//
// A connection from any other source is served as a direct client, except
// that one beginning with a PROXY header is closed without a response: an
// untrusted peer cannot choose the address the server sees.
//
// With ServeTLS the header precedes the TLS handshake (HAProxy in TCP mode
// with send-proxy): it is read in cleartext, then TLS starts on the rest
// of the connection. The header's source is the client's address on every
// protocol: HTTP/1.1 with or without TLS, and HTTP/2 over TLS or h2c
// (the connection handed to Server.HTTP2 reports it as RemoteAddr).
type ProxyProtocol struct {
	// Trusted lists the source networks of the proxies. Empty means none:
	// every connection is direct and a PROXY header is always refused.
	// IPv4-mapped IPv6 sources are matched as IPv4.
	Trusted []netip.Prefix

	// HeaderTimeout bounds the time a trusted proxy has, from the accept,
	// to send the whole header. Zero means DefaultProxyHeaderTimeout
	// (2 s); negative means the server's IdleTimeout.
	HeaderTimeout time.Duration
}

// Proxy returns the PROXY header the connection began with, or nil when
// it had none (ProxyProtocol unset, or an untrusted direct client). It is
// set once per connection, before its first request, and not changed
// afterwards. The header and the slices it returns are owned by the
// connection: valid until the handler returns, like the Ctx.
func (c *Ctx) Proxy() *proxyproto.Header { return c.c.proxy }

// PeerAddr returns the address of the connection's immediate peer: the
// proxy for a connection that began with a PROXY header, else the same
// address as RemoteAddr.
func (c *Ctx) PeerAddr() net.Addr { return c.c.nc.RemoteAddr() }

// remoteAddr is the client's address: the PROXY header's source, else the
// peer's.
func (c *conn) remoteAddr() net.Addr {
	if c.proxy != nil && c.proxy.Source != nil {
		return c.proxy.Source
	}
	return c.nc.RemoteAddr()
}

// trusts reports whether the peer a is a trusted proxy.
func (p *ProxyProtocol) trusts(a net.Addr) bool {
	return inPrefixes(p.Trusted, addrIP(a))
}

// headerTimeout resolves HeaderTimeout.
func (p *ProxyProtocol) headerTimeout(idle time.Duration) time.Duration {
	switch {
	case p.HeaderTimeout == 0:
		return DefaultProxyHeaderTimeout
	case p.HeaderTimeout < 0:
		return idle
	}
	return p.HeaderTimeout
}

// addrIP returns the IP of a TCP or UDP address (or of the "ip:port" of
// a request through net/http), unmapped; the zero Addr
// for any other.
func addrIP(a net.Addr) netip.Addr {
	switch a := a.(type) {
	case *net.TCPAddr:
		ip, _ := netip.AddrFromSlice(a.IP)
		return ip.Unmap()
	case *net.UDPAddr:
		ip, _ := netip.AddrFromSlice(a.IP)
		return ip.Unmap()
	case stringAddr: // a request through net/http (ToHTTP, package h2)
		ap, _ := netip.ParseAddrPort(string(a))
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}

// inPrefixes reports whether ip is in one of the networks.
func inPrefixes(nets []netip.Prefix, ip netip.Addr) bool {
	if !ip.IsValid() {
		return false
	}
	for _, p := range nets {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// acceptProxy reads and checks the PROXY header that starts a connection
// when Server.ProxyProtocol is set (see ProxyProtocol), leaving the bytes
// after it in the read buffer. It reports whether to serve the
// connection.
func (c *conn) acceptProxy(p *ProxyProtocol) bool {
	c.proxy = nil
	trusted := p.trusts(c.nc.RemoteAddr())
	if trusted {
		c.setReadTimeout(p.headerTimeout(c.lim.idleTimeout))
	} else {
		c.setReadTimeout(c.lim.idleTimeout)
	}
	c.takeReadBuf()
	for {
		n, scan := proxyproto.Scan(c.in.Buffered())
		switch {
		case scan == proxyproto.NotProxy && !trusted:
			return c.activate(nil)
		case scan == proxyproto.Found && trusted:
			return c.parseProxyHeader(n)
		case scan != proxyproto.NeedMore:
			c.srv.logger.Debug("brisk: PROXY header refused", "peer", c.nc.RemoteAddr().String(), "trusted", trusted)
			return false
		}
		if c.in.Fill(0, c.lim.maxHeader) != nil { // connio.ErrFull past MaxHeaderBytes
			return false
		}
	}
}

// parseProxyHeader parses the n-byte header at the start of the read
// buffer into c.proxy, in c's header storage, and consumes it.
func (c *conn) parseProxyHeader(n int) bool {
	if c.proxyStore == nil {
		c.proxyStore = new(proxyproto.Header)
	}
	h := c.proxyStore
	if err := proxyproto.Parse(c.in.Buffered()[:n], h); err != nil {
		c.srv.logger.Debug("brisk: invalid PROXY header", "peer", c.nc.RemoteAddr().String(), "err", err)
		return false
	}
	c.proxy = h
	c.in.Consume(n)
	c.readMark = c.consumed()
	// A request head already buffered is read under ReadHeaderTimeout
	// by readHead (fillHead) if it is incomplete: no deadline to set.
	return c.in.Len() == 0 || c.activate(nil)
}
