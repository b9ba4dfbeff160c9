package h2

import (
	"bytes"
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

// TestProxyProtocolRemoteAddr: behind a trusted proxy's PROXY header (v1
// and v2), the handler's RemoteAddr and ClientIP are the header's source
// on every protocol: HTTP/1.1 over TLS, HTTP/2 over TLS (ALPN h2) and
// h2c. HTTP/2 over TLS used to report the proxy's socket address.
func TestProxyProtocolRemoteAddr(t *testing.T) {
	const want = "192.0.2.7:5555 192.0.2.7"
	headers := map[string][]byte{
		"v1": []byte("PROXY TCP4 192.0.2.7 127.0.0.1 5555 443\r\n"),
		"v2": append([]byte("\r\n\r\n\x00\r\nQUIT\n\x21\x11\x00\x0c"),
			192, 0, 2, 7, 127, 0, 0, 1, 0x15, 0xb3, 0x01, 0xbb), // ports 5555, 443
	}
	handler := func(c *brisk.Ctx) {
		c.Response.WriteString(c.RemoteAddr().String() + " " + c.ClientIP().String())
	}
	trusted := &brisk.ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
	newServer := func(tlsOn bool) string {
		srv := &brisk.Server{H2C: !tlsOn, Handler: handler, ProxyProtocol: trusted,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
		if err := Configure(srv, Config{}); err != nil {
			t.Fatal(err)
		}
		return serve(t, srv, tlsOn)
	}
	tlsAddr, h2cAddr := newServer(true), newServer(false)
	_, a := testCert(t)
	for version, hdr := range headers {
		dialProxied := func(ctx context.Context, addr string) (net.Conn, error) {
			var d net.Dialer
			nc, err := d.DialContext(ctx, "tcp", addr)
			if err != nil {
				return nil, err
			}
			return &prefixConn{Conn: nc, prefix: bytes.Clone(hdr)}, nil
		}
		dialTLS := func(ctx context.Context, addr string, proto string) (net.Conn, error) {
			nc, err := dialProxied(ctx, addr)
			if err != nil {
				return nil, err
			}
			tc := tls.Client(nc, &tls.Config{RootCAs: a.Pool, ServerName: "127.0.0.1", NextProtos: []string{proto}})
			if err := tc.HandshakeContext(ctx); err != nil {
				nc.Close()
				return nil, err
			}
			return tc, nil
		}
		cases := []struct {
			name, url, proto string
			tr               http.RoundTripper
		}{
			{"h1_tls", "https://" + tlsAddr + "/", "HTTP/1.1", &http.Transport{
				DialTLSContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
					return dialTLS(ctx, addr, "http/1.1")
				}}},
			{"h2_tls", "https://" + tlsAddr + "/", "HTTP/2.0", &http2.Transport{
				DialTLSContext: func(ctx context.Context, _, addr string, _ *tls.Config) (net.Conn, error) {
					return dialTLS(ctx, addr, "h2")
				}}},
			{"h2c", "http://" + h2cAddr + "/", "HTTP/2.0", &http2.Transport{AllowHTTP: true,
				DialTLSContext: func(ctx context.Context, _, addr string, _ *tls.Config) (net.Conn, error) {
					return dialProxied(ctx, addr)
				}}},
		}
		for _, tc := range cases {
			t.Run(version+"_"+tc.name, func(t *testing.T) {
				c := &http.Client{Transport: tc.tr, Timeout: 5 * time.Second}
				defer c.CloseIdleConnections()
				resp, err := c.Get(tc.url)
				if err != nil {
					t.Fatal(err)
				}
				if body := readAll(t, resp); resp.Proto != tc.proto || resp.StatusCode != 200 || body != want {
					t.Fatalf("%s %d %q, want %s 200 %q", resp.Proto, resp.StatusCode, body, tc.proto, want)
				}
			})
		}
	}
}
