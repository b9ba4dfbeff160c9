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
	"github.com/brisk-http/brisk/h2"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
	"github.com/brisk-http/brisk/proxyproto"
)

// TestProxyTLS: an "https" upstream is reached over TLS (Record.TLS is
// timed), and a client on TLS is forwarded with X-Forwarded-Proto https
// and Forwarded proto=https.
func TestProxyTLS(t *testing.T) {
	certs := brisktest.NewTLSCerts()
	ln := tls.NewListener(testserver.Listen(t), certs.ServerConfig())
	testserver.Serve(t, testserver.Quiet(&brisk.Server{Handler: echoFields}), ln)
	p := &Proxy{Upstreams: []string{"https://localhost:" + portOf(ln.Addr())},
		Forwarding: ForwardXForwarded | ForwardForwarded}
	record := records(t, p)
	p.Client.TLSConfig = certs.ClientConfig()
	p.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, strings.Replace(addr, "localhost", "127.0.0.1", 1))
	}
	t.Cleanup(p.CloseIdleConnections)
	fln := tls.NewListener(testserver.Listen(t), certs.ServerConfig())
	testserver.Serve(t, testserver.Quiet(&brisk.Server{Handler: p.Serve}), fln)

	c, err := tls.Dial("tcp", fln.Addr().String(), certs.ClientConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(testTimeout))
	io.WriteString(c, "GET /t HTTP/1.1\r\nHost: example.com\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	for _, want := range []string{"X-Forwarded-Proto: https\n", `Forwarded: for=127.0.0.1;proto=https;host="example.com"` + "\n"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("backend did not get %q:\n%s", want, body)
		}
	}
	if rec := record(1); rec.TLS <= 0 || rec.Dial <= 0 || rec.Err != nil {
		t.Errorf("record %+v: want Dial and TLS timed", rec)
	}
}

func portOf(a net.Addr) string {
	_, port, _ := net.SplitHostPort(a.String())
	return port
}

// TestProxyH2: clients over h2c (and so h2, the same bridge) are
// forwarded over HTTP/1.1 with their body, and Via names the version
// they were received with, "2"; an upgrade is not possible there.
func TestProxyH2(t *testing.T) {
	p := &Proxy{Upstreams: []string{backend(t, echoFields)}}
	t.Cleanup(p.CloseIdleConnections)
	srv := testserver.Quiet(&brisk.Server{Handler: p.Serve, H2C: true})
	if err := h2.Configure(srv, h2.Config{}); err != nil {
		t.Fatal(err)
	}
	addr := testserver.Start(t, srv)
	var prior http.Protocols
	prior.SetUnencryptedHTTP2(true)
	cl := &http.Client{Transport: &http.Transport{Protocols: &prior}, Timeout: testTimeout}
	defer cl.CloseIdleConnections()
	resp, err := cl.Post("http://"+addr+"/h2", "text/plain", strings.NewReader("over h2c"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.ProtoMajor != 2 || resp.StatusCode != 200 || !strings.HasPrefix(string(body), "POST /h2\n") ||
		!strings.HasSuffix(string(body), "over h2c") || !strings.Contains(string(body), "Via: 2 brisk\n") {
		t.Errorf("%s %d:\n%s", resp.Proto, resp.StatusCode, body)
	}
}

// TestProxyClientAddress: behind a PROXY header, X-Forwarded-For carries
// the header's source; from a trusted proxy, the forwarding fields it
// sent are kept and appended to; from anyone else they are dropped.
func TestProxyClientAddress(t *testing.T) {
	p := &Proxy{Upstreams: []string{backend(t, echoFields)}, Forwarding: ForwardXForwarded | ForwardForwarded}
	t.Cleanup(p.CloseIdleConnections)
	local := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	srv := testserver.Quiet(&brisk.Server{Handler: p.Serve, ProxyProtocol: &brisk.ProxyProtocol{Trusted: local}})
	addr := testserver.Start(t, srv)
	h := proxyproto.NewHeader(1, &net.TCPAddr{IP: net.ParseIP("203.0.113.7"), Port: 4000}, &net.TCPAddr{IP: net.ParseIP("192.0.2.1"), Port: 80})
	head, err := proxyproto.Append(nil, h)
	if err != nil {
		t.Fatal(err)
	}
	_, body, err := roundTrip(t, addr, string(head)+"GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 6.6.6.6\r\n\r\n")
	if err != nil || !strings.Contains(body, "X-Forwarded-For: 203.0.113.7\n") || strings.Contains(body, "6.6.6.6") ||
		!strings.Contains(body, "Forwarded: for=203.0.113.7;proto=http;host=\"x\"\n") {
		t.Errorf("behind PROXY: %v\n%s", err, body)
	}

	trusted := testserver.Quiet(&brisk.Server{Handler: p.Serve, TrustedProxies: local})
	taddr := testserver.Start(t, trusted)
	_, body, err = roundTrip(t, taddr, "GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.9\r\n"+
		"X-Forwarded-Proto: https\r\nForwarded: for=198.51.100.9\r\n\r\n")
	if err != nil || !strings.Contains(body, "X-Forwarded-For: 198.51.100.9, 127.0.0.1\n") ||
		!strings.Contains(body, "X-Forwarded-Proto: https\n") ||
		!strings.Contains(body, "Forwarded: for=198.51.100.9, for=127.0.0.1;proto=http;host=\"x\"\n") {
		t.Errorf("from a trusted proxy: %v\n%s", err, body)
	}
}

// TestProxyResponseIdle: an upstream that stops sending mid-body for
// IdleTimeout has its response cut short at the client.
func TestProxyResponseIdle(t *testing.T) {
	up := rawBackend(t, func(c net.Conn) {
		readHead(bufio.NewReader(c))
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello")
		time.Sleep(2 * time.Second)
	})
	p := &Proxy{Upstreams: []string{up}, IdleTimeout: 200 * time.Millisecond}
	start := time.Now()
	resp, body, err := roundTrip(t, front(t, p), "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	if resp.StatusCode != 200 || body != "hello" || err != io.ErrUnexpectedEOF || time.Since(start) > time.Second+500*time.Millisecond {
		t.Errorf("%d %q %v after %v", resp.StatusCode, body, err, time.Since(start))
	}
}

// TestProxyHeaderToUpstream: Client.ProxyHeader sends a PROXY header on
// each upstream connection, which an upstream trusting the proxy reads.
func TestProxyHeaderToUpstream(t *testing.T) {
	local := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	up := testserver.Start(t, testserver.Quiet(&brisk.Server{ProxyProtocol: &brisk.ProxyProtocol{Trusted: local},
		Handler: func(c *brisk.Ctx) { c.Response.WriteString(c.RemoteAddr().String()) }}))
	p := &Proxy{Upstreams: []string{"http://" + up}}
	p.Client.ProxyHeader = func(nc net.Conn) *proxyproto.Header {
		return proxyproto.NewHeader(2, &net.TCPAddr{IP: net.ParseIP("198.51.100.1"), Port: 1234}, nc.RemoteAddr())
	}
	_, body, err := roundTrip(t, front(t, p), "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	if err != nil || body != "198.51.100.1:1234" {
		t.Errorf("%q %v", body, err)
	}
}

// TestProxyDropsClientXRealIP: a client's own X-Real-IP is a forwarding
// field like X-Forwarded-For: a backend that trusts the proxy and reads
// the client's address from X-Real-IP (brisk.FieldXRealIP, nginx's
// real_ip_header) must see the client's address, not one it made up.
func TestProxyDropsClientXRealIP(t *testing.T) {
	be := &brisk.Server{
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		ClientIPField:  brisk.FieldXRealIP,
		Handler:        func(c *brisk.Ctx) { c.Response.SetBodyString(c.ClientIP().String()) },
	}
	p := &Proxy{Upstreams: []string{"http://" + testserver.Start(t, testserver.Quiet(be))}}
	addr := front(t, p)
	resp, body, err := roundTrip(t, addr, "GET / HTTP/1.1\r\nHost: x\r\nX-Real-IP: 6.6.6.6\r\n\r\n")
	if err != nil || resp.StatusCode != 200 || body != "127.0.0.1" {
		t.Fatalf("status %d, err %v, backend's ClientIP %q, want \"127.0.0.1\"", resp.StatusCode, err, body)
	}
}
