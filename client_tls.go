package brisk

import (
	"crypto/tls"
	"net"
)

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
