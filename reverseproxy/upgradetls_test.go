package reverseproxy

import (
	"bufio"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
	"github.com/brisk-http/brisk/proxyproto"
)

// TestProxyUpgradeTransports: an upgrade passes through whatever carries
// it: a client over TLS, behind a PROXY v2 header, or both, to an
// upstream over plain TCP or TLS. The upstream sees the client's address
// from the PROXY header (X-Forwarded-For) and proto https for a TLS
// client; bytes flow both ways, and the client's half-close ends the
// tunnel with one Record, Upgraded.
func TestProxyUpgradeTransports(t *testing.T) {
	certs := brisktest.NewTLSCerts()
	upgrade := func(c *brisk.Ctx) {
		hello := "xff=" + string(c.Request.Header.Get("X-Forwarded-For")) + ";proto=" +
			string(c.Request.Header.Get("X-Forwarded-Proto")) + ">"
		nc, rest, err := c.Upgrade("echo")
		if err != nil {
			c.Response.SetStatusCode(400)
			return
		}
		defer nc.Close()
		nc.SetDeadline(time.Now().Add(testTimeout))
		io.WriteString(nc, hello)
		nc.Write(rest)
		io.Copy(nc, nc)
	}
	plainUp := backend(t, upgrade)
	tln := tls.NewListener(testserver.Listen(t), certs.ServerConfig())
	testserver.Serve(t, testserver.Quiet(&brisk.Server{Handler: upgrade}), tln)
	tlsUp := "https://localhost:" + portOf(tln.Addr())

	for _, tc := range []struct {
		name                    string
		tlsDown, proxied, tlsUp bool
	}{
		{"tls", true, false, false}, {"proxy", false, true, false}, {"tls_proxy", true, true, false},
		{"tls_proxy_to_tls", true, true, true}, {"to_tls", false, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Proxy{Upstreams: []string{plainUp}}
			if tc.tlsUp {
				p.Upstreams = []string{tlsUp}
				p.Client.TLSConfig = certs.ClientConfig()
				p.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
					var d net.Dialer
					return d.DialContext(ctx, network, strings.Replace(addr, "localhost", "127.0.0.1", 1))
				}
			}
			record := records(t, p)
			t.Cleanup(p.CloseIdleConnections)
			srv := testserver.Quiet(&brisk.Server{Handler: p.Serve})
			if tc.proxied {
				srv.ProxyProtocol = &brisk.ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
			}
			ln := testserver.Listen(t)
			if tc.tlsDown {
				serveTLS(t, srv, ln, certs)
			} else {
				testserver.Serve(t, srv, ln)
			}

			c := dial(t, ln.Addr().String())
			if tc.proxied {
				h := proxyproto.NewHeader(2, &net.TCPAddr{IP: net.ParseIP("203.0.113.7"), Port: 4000}, c.RemoteAddr())
				head, _ := proxyproto.Append(nil, h)
				c.Write(head)
			}
			var conn net.Conn = c
			if tc.tlsDown {
				conf := certs.ClientConfig()
				conf.ServerName = "localhost"
				conn = tls.Client(c, conf)
			}
			io.WriteString(conn, "GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\nearly,")
			br := bufio.NewReader(conn)
			resp, err := http.ReadResponse(br, nil)
			if err != nil || resp.StatusCode != 101 {
				t.Fatalf("response %v (%v)", resp, err)
			}
			io.WriteString(conn, "late")
			if tc.tlsDown {
				conn.(*tls.Conn).CloseWrite()
			} else {
				conn.(*net.TCPConn).CloseWrite()
			}
			got, err := io.ReadAll(br)
			from, proto := "127.0.0.1", "http"
			if tc.proxied {
				from = "203.0.113.7"
			}
			if tc.tlsDown {
				proto = "https"
			}
			if want := "xff=" + from + ";proto=" + proto + ">early,late"; err != nil || string(got) != want {
				t.Errorf("got %q (%v), want %q", got, err, want)
			}
			if rec := record(1); !rec.Upgraded || rec.Status != 101 || rec.Err != nil || (tc.tlsUp && rec.TLS <= 0) {
				t.Errorf("record %+v", rec)
			}
		})
	}
}
