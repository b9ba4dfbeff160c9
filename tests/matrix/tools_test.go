package matrix

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/internal/testsupport/freeport"
	"github.com/brisk-http/brisk/internal/testsupport/peer"
)

// parseFacts splits the /facts body into its name=value lines.
func parseFacts(body string) map[string]string {
	m := make(map[string]string)
	for line := range strings.SplitSeq(strings.TrimSpace(body), "\n") {
		k, v, _ := strings.Cut(line, "=")
		m[k] = v
	}
	return m
}

// TestMatrixCurl runs the facts cell with curl over every transport
// (--http1.1, --http2 over TLS, --http2-prior-knowledge), without and
// with --haproxy-protocol (PROXY v1 with curl's own addresses): the
// handler's facts, curl's HTTP version and one OnRequestDone each.
func TestMatrixCurl(t *testing.T) {
	curl := peer.Need(t, "curl", "Debian package curl")
	certs := brisktest.NewTLSCerts()
	m := servers(t, certs)
	flags := map[string][]string{
		h1: {"--http1.1"}, h1TLS: {"--http1.1", "-k"}, h2TLS: {"--http2", "-k"}, h2c: {"--http2-prior-knowledge"},
	}
	for _, c := range cells(certs, m) {
		if c.proxy == proxyV2 {
			continue // curl sends PROXY v1 only
		}
		t.Run(c.name(), func(t *testing.T) {
			target := "/facts?id=curl-" + c.name()
			args := append([]string{"-sS", "--max-time", "10", "-w", "\nclient=%{local_ip}:%{local_port}\nversion=%{http_version}\n"}, flags[c.transport]...)
			if c.proxy == proxyV1 {
				args = append(args, "--haproxy-protocol")
			}
			out, err := exec.Command(curl, append(args, c.url(target))...).CombinedOutput()
			if err != nil {
				t.Fatalf("curl: %v\n%s", err, out)
			}
			got := parseFacts(string(out))
			local := got["client"]
			want := parseFacts(c.want(local, false))
			if c.proxy == proxyV1 { // curl's header carries its own addresses
				want["remote"], want["clientip"], want["proxy"] = local, "127.0.0.1", "v1/"+local
			}
			want["client"], want["version"] = local, map[bool]string{true: "2", false: "1.1"}[c.isHTTP2()]
			if c.isTLS() && got["tls"] != want["tls"] && strings.HasSuffix(got["tls"], "/303") {
				want["tls"] = strings.TrimSuffix(want["tls"], "/304") + "/303" // curl's OpenSSL may stop at TLS 1.2
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s=%q, want %q", k, got[k], v)
				}
			}
			rec := c.s.rec.one(t, target)
			if rec.status != 200 || rec.proto != want["proto"] || rec.remote != want["remote"] {
				t.Fatalf("record %+v, want 200 %s from %s", rec, want["proto"], want["remote"])
			}
		})
	}
}

// TestMatrixHAProxy puts HAProxy in TCP mode, sending PROXY v2, in front
// of the TLS listener: over HTTP/1.1 and h2 (ALPN passes through), the
// handler's RemoteAddr is the client's address and PeerAddr HAProxy's.
func TestMatrixHAProxy(t *testing.T) {
	bin := peer.Need(t, "haproxy", "Debian package haproxy")
	certs := brisktest.NewTLSCerts()
	s := startServer(t, certs, true, true)
	front := fmt.Sprintf("127.0.0.1:%d", freeport.Port(t))
	cfg := t.TempDir() + "/haproxy.cfg"
	writeFile(t, cfg, fmt.Sprintf(`global
	maxconn 64
defaults
	mode tcp
	timeout connect 2s
	timeout client 10s
	timeout server 10s
frontend fe
	bind %s
	default_backend be
backend be
	server brisk %s send-proxy-v2
`, front, s.addr))
	peer.Start(t, front, bin, "-db", "-f", cfg)
	for _, tr := range []string{h1TLS, h2TLS} {
		t.Run(tr, func(t *testing.T) {
			c := cell{transport: tr, proxy: noProxy, s: s, certs: certs, via: front}
			target := "/facts?id=haproxy-" + tr
			cl, log := c.client()
			resp, body := do(t, cl, "GET", c.url(target), "")
			cl.CloseIdleConnections()
			local := log.last().LocalAddr().String()
			got := parseFacts(body)
			want := parseFacts(c.want(local, false))
			want["proxy"] = "v2/" + local
			peerAddr := got["peer"]
			delete(want, "peer")
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s=%q, want %q", k, got[k], v)
				}
			}
			if !strings.HasPrefix(peerAddr, "127.0.0.1:") || peerAddr == local {
				t.Errorf("peer=%q, want HAProxy's address, not the client's %s", peerAddr, local)
			}
			if rec := c.s.rec.one(t, target); resp.StatusCode != 200 || rec.status != 200 || rec.remote != local {
				t.Fatalf("%d, record %+v: want 200 from %s", resp.StatusCode, rec, local)
			}
		})
	}
}
