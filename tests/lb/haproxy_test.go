package lb

import (
	"fmt"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/freeport"
	"github.com/brisk-http/brisk/internal/testsupport/peer"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// startHAProxy runs HAProxy in HTTP mode on a loopback port, in front of
// backend with send-proxy-v2 and keep-alive connections to it, and
// returns its address.
func startHAProxy(t *testing.T, backend string) string {
	t.Helper()
	bin := peer.Need(t, "haproxy", lbInstall)
	front := fmt.Sprintf("127.0.0.1:%d", freeport.Port(t))
	cfg := writeConfig(t, "haproxy.cfg", fmt.Sprintf(`global
	maxconn 256
defaults
	mode http
	timeout connect 2s
	timeout client 10s
	timeout server 10s
	option http-keep-alive
	http-reuse always
	# A server may close an idle keep-alive connection as a request is sent
	# on it (RFC 9112 §9.6; brisk's Shutdown closes idle ones): retry it, as
	# a production HAProxy in front of any HTTP/1.1 server is set up to.
	retries 3
	retry-on conn-failure empty-response
frontend fe
	bind %s
	default_backend be
backend be
	server brisk %s send-proxy-v2
`, front, backend))
	peer.Start(t, front, bin, "-db", "-f", cfg)
	return front
}

func TestHAProxySendProxyV2(t *testing.T) {
	var served atomic.Int64
	pp := &brisk.ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	backend := testserver.Start(t, testserver.Quiet(&brisk.Server{ProxyProtocol: pp, Handler: func(c *brisk.Ctx) {
		served.Add(1)
		remoteHandler(c)
	}}))
	front := startHAProxy(t, backend)
	kc := newClient()
	for i := range 5 {
		code, body := kc.get(t, "http://"+front+"/")
		want := "remote=" + kc.localAddr() + " peer=127.0.0.1:"
		if code != 200 || !strings.HasPrefix(body, want) {
			t.Fatalf("request %d: %d %q, want 200 %q...", i, code, body, want)
		}
		if strings.HasPrefix(body, "remote="+backend) {
			t.Fatalf("request %d: handler saw HAProxy's address", i)
		}
	}
	if n := served.Load(); n != 5 {
		t.Fatalf("handler ran %d times, want 5", n)
	}
}

func TestHAProxyUntrustedRefused(t *testing.T) {
	var served atomic.Int64
	pp := &brisk.ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}
	backend := testserver.Start(t, testserver.Quiet(&brisk.Server{ProxyProtocol: pp, Handler: func(c *brisk.Ctx) {
		served.Add(1)
		remoteHandler(c)
	}}))
	front := startHAProxy(t, backend)
	code, body := newClient().get(t, "http://"+front+"/")
	if code != 502 && code != 503 {
		t.Fatalf("got %d %q, want HAProxy's 502 or 503 (brisk refused the header)", code, body)
	}
	if n := served.Load(); n != 0 {
		t.Fatalf("handler ran %d times for an untrusted PROXY header", n)
	}
}
