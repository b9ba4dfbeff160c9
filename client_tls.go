package brisk

import (
	"crypto/tls"
	"net"
)

// TLS returns, on the client side, the state of the TLS connection the
// response came on: version, cipher suite, the server's certificates
// (PeerCertificates) and the chains they were verified against
// (VerifiedChains, empty with InsecureSkipVerify). It is nil for an
// "http" request, before a response head was received, and on the server
// side. The state is shared by the responses of one connection: read it,
// do not modify it; it may be kept after the Response is reused.
func (r *Response) TLS() *tls.ConnectionState { return r.tls }

// tlsState returns the TLS state of cc's connection, nil when it is not
// TLS. It is read once per connection, after the handshake dialConn did.
func (cc *clientConn) tlsState() *tls.ConnectionState {
	if cc.tls == nil {
		if tc, ok := cc.nc.(*tls.Conn); ok {
			st := tc.ConnectionState()
			cc.tls = &st
		}
	}
	return cc.tls
}

// clientTLSConfig returns the configuration a HostClient dials addr
// ("host:port") with: a clone of conf (nil means an empty one), the host
// as ServerName when that is empty, and NextProtos keeping only the
// protocols the client speaks (see ClientConfig.TLSConfig).
func clientTLSConfig(conf *tls.Config, addr string) *tls.Config {
	c := &tls.Config{}
	if conf != nil {
		c = conf.Clone()
	}
	if c.ServerName == "" {
		c.ServerName, _, _ = net.SplitHostPort(addr)
	}
	// Clone shares NextProtos' array with conf: build a new one.
	var protos []string
	for _, p := range c.NextProtos {
		if p == "http/1.1" || p == "http/1.0" {
			protos = append(protos, p)
		}
	}
	c.NextProtos = protos
	return c
}
