package brisk

import (
	"bufio"
	"crypto/tls"
	"io"
	"net"
	"net/netip"
	"testing"
	"time"
)

// TestServeTLSBehindProxyHeader: with ProxyProtocol set, ServeTLS reads
// the PROXY header in cleartext and then the TLS handshake (HAProxy in TCP
// mode with send-proxy); the handler sees the header's source address and
// the TLS state. A header and ClientHello in one write work too.
func TestServeTLSBehindProxyHeader(t *testing.T) {
	p := getPKI(t)
	s := &Server{
		TLSConfig:     &tls.Config{Certificates: []tls.Certificate{p.server}},
		ProxyProtocol: &ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}},
		Handler: func(c *Ctx) {
			c.Response.SetBodyString(c.RemoteAddr().String() + " " + c.PeerAddr().String()[:len("127.0.0.1")])
			if c.TLS() == nil {
				c.Response.SetBodyString("no TLS")
			}
		},
	}
	addr := serveTLS(t, s, "", "")
	for _, together := range []bool{false, true} {
		nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		nc.SetDeadline(time.Now().Add(10 * time.Second))
		hdr := "PROXY TCP4 192.0.2.7 127.0.0.1 5555 443\r\n"
		var conn net.Conn = nc
		if together { // the header goes out with the ClientHello, in one write
			conn = &prefixConn{Conn: nc, prefix: []byte(hdr)}
		} else if _, err := io.WriteString(nc, hdr); err != nil {
			t.Fatal(err)
		}
		tc := tls.Client(conn, p.clientTLS())
		code, body := tlsGet(t, tc, bufio.NewReader(tc), "/")
		if code != 200 || body != "192.0.2.7:5555 127.0.0.1" {
			t.Fatalf("together=%v: %d %q, want 200 \"192.0.2.7:5555 127.0.0.1\"", together, code, body)
		}
	}
}

// prefixConn writes prefix before the first write.
type prefixConn struct {
	net.Conn
	prefix []byte
}

func (c *prefixConn) Write(p []byte) (int, error) {
	if c.prefix != nil {
		b := append(c.prefix, p...)
		c.prefix = nil
		if _, err := c.Conn.Write(b); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}
