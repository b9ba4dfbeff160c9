package brisk

import "crypto/tls"

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
