package brisk

import (
	"net"

	"github.com/brisk-http/brisk/proxyproto"
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
	b, err := proxyproto.Append(nil, ph)
	if err != nil {
		return err
	}
	_, err = nc.Write(b)
	return err
}
