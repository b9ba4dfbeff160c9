//go:build linux && !386

package reverseproxy

import (
	"crypto/tls"
	"io"
	"net"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// foreignWrapper is a connection wrapper rawSocket does not know: its
// bytes might not be the socket's.
type foreignWrapper struct{ net.Conn }

func (w foreignWrapper) NetConn() net.Conn { return w.Conn }

// TestRawSocket: the tunnel reads the socket directly only under
// connections that pass its bytes unchanged.
func TestRawSocket(t *testing.T) {
	hijacked := make(chan net.Conn, 1)
	srv := testserver.Quiet(&brisk.Server{CloseHijacked: true, Handler: func(c *brisk.Ctx) {
		nc, _, err := c.Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		hijacked <- nc
	}})
	c := dial(t, testserver.Start(t, srv))
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	hc := <-hijacked
	defer hc.Close()
	tc := c.(*net.TCPConn)
	for _, tt := range []struct {
		name string
		c    net.Conn
		raw  bool
	}{
		{"tcp", tc, true},
		{"upstream_tcp", &upstreamConn{Conn: tc}, true},
		{"hijacked_tracked", hc, true},
		{"tls", tls.Client(tc, &tls.Config{}), false},
		{"upstream_tls", &upstreamConn{Conn: tls.Client(tc, &tls.Config{})}, false},
		{"foreign_wrapper", foreignWrapper{tc}, false},
	} {
		if got := rawSocket(tt.c) != nil; got != tt.raw {
			t.Errorf("%s: raw %v, want %v", tt.name, got, tt.raw)
		}
	}
}
