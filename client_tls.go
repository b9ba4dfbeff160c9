package brisk

import (
	"crypto/tls"
	"fmt"
	"net"
	"slices"
)

// tlsState returns the TLS state of cc's connection, nil when it is not
// TLS. It is read once per connection, after the handshake dialConnWith did.
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

// http2Hint returns err, the failure to read the first response head on
// cc, with the likely cause added when the server seems to speak HTTP/2
// only, which the client does not: its input starts with an HTTP/2 frame
// on stream 0 (a SETTINGS or GOAWAY frame, RFC 9113 §4.1, §3.4: the
// server's preface), or, over TLS, ALPN offered "http/1.1", the server
// chose no protocol and closed the connection before any byte (net/http's
// server with HTTP/2 alone does so: Go's TLS lets an "http/1.1" offer
// reach an "h2"-only server). A config offering "h2" is filtered, so
// this is where such a client learns why.
func (cc *clientConn) http2Hint(err error) error {
	if cc.uses != 1 {
		return err
	}
	in := cc.in.Buffered()
	frame := len(in) >= 9 && (in[3] == 0x4 || in[3] == 0x7) && in[5]&0x7f == 0 && in[6] == 0 && in[7] == 0 && in[8] == 0
	if !frame {
		st := cc.tlsState()
		if st == nil || st.NegotiatedProtocol != "" || cc.sawByte || len(in) > 0 ||
			!slices.Contains(cc.hc.tlsConf.NextProtos, "http/1.1") {
			return err
		}
	}
	return fmt.Errorf("%w (the server seems to speak HTTP/2 only; brisk's Client speaks HTTP/1.1)", err)
}
