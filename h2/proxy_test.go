package h2

import (
	"context"
	"crypto/tls"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"golang.org/x/net/http2"
)

//lint:file-ignore SA1019 x/net v0.62.0 deprecates http2.Transport for net/http's; these tests keep the x/net client that the server side is tested against

// TestProxyProtocolH2C: a trusted proxy's PROXY v1 header followed, in
// the same write, by the HTTP/2 preface: the connection is served as
// HTTP/2 at once (it used to wait for more input, which never came),
// and the handler's RemoteAddr is the client's from the header.
func TestProxyProtocolH2C(t *testing.T) {
	srv := &brisk.Server{H2C: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Handler: func(c *brisk.Ctx) {
			c.Response.WriteString(c.RemoteAddr().String())
		},
		ProxyProtocol: &brisk.ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}},
	}
	if err := Configure(srv, Config{}); err != nil {
		t.Fatal(err)
	}
	addr := serve(t, srv, false)
	tr := &http2.Transport{AllowHTTP: true, DialTLSContext: func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
		var d net.Dialer
		nc, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &prefixConn{Conn: nc, prefix: []byte("PROXY TCP4 192.0.2.7 127.0.0.1 5555 80\r\n")}, nil
	}}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr, Timeout: 5 * time.Second}).Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if body := readAll(t, resp); resp.Proto != "HTTP/2.0" || resp.StatusCode != 200 || body != "192.0.2.7:5555" {
		t.Fatalf("%s %d %q, want HTTP/2.0 200 192.0.2.7:5555", resp.Proto, resp.StatusCode, body)
	}
}

// prefixConn sends prefix with its first Write, in the same segment.
type prefixConn struct {
	net.Conn
	prefix []byte
}

func (c *prefixConn) Write(p []byte) (int, error) {
	if c.prefix != nil {
		b := append(c.prefix, p...)
		c.prefix = nil
		n, err := c.Conn.Write(b)
		return max(n-(len(b)-len(p)), 0), err
	}
	return c.Conn.Write(p)
}
