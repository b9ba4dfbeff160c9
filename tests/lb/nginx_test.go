package lb

import (
	"fmt"
	"net/netip"
	"os"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/freeport"
	"github.com/brisk-http/brisk/internal/testsupport/peer"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

const nginxStreamModule = "/usr/lib/nginx/modules/ngx_stream_module.so"

// startNginx runs nginx with the given configuration body (events
// block included) on a loopback port and returns that port's address.
func startNginx(t *testing.T, listen, body string) {
	t.Helper()
	bin := peer.Need(t, "nginx", lbInstall)
	dir := t.TempDir()
	cfg := writeConfig(t, "nginx.conf", fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
%[2]s
`, dir, body))
	peer.Start(t, listen, bin, "-p", dir, "-c", cfg, "-e", dir+"/error.log")
}

// ipHandler answers with Ctx.ClientIP and RemoteAddr.
func ipHandler(c *brisk.Ctx) {
	fmt.Fprintf(&c.Response, "client=%s remote=%s", c.ClientIP(), c.RemoteAddr())
}

func TestNginxStreamProxyProtocol(t *testing.T) {
	if _, err := os.Stat(nginxStreamModule); err != nil {
		t.Skipf("nginx stream module not installed (apt-get install libnginx-mod-stream): %v", err)
	}
	pp := &brisk.ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	backend := testserver.Start(t, testserver.Quiet(&brisk.Server{ProxyProtocol: pp, Handler: ipHandler}))
	front := fmt.Sprintf("127.0.0.1:%d", freeport.Port(t))
	startNginx(t, front, fmt.Sprintf(`load_module %s;
events { worker_connections 64; }
stream {
	server {
		listen %s;
		proxy_pass %s;
		proxy_protocol on;
	}
}`, nginxStreamModule, front, backend))
	kc := newClient()
	for i := range 3 {
		code, body := kc.get(t, "http://"+front+"/")
		if want := "client=127.0.0.1 remote=" + kc.localAddr(); code != 200 || body != want {
			t.Fatalf("request %d: %d %q, want 200 %q", i, code, body, want)
		}
	}
}

func TestNginxXForwardedFor(t *testing.T) {
	cases := []struct {
		name    string
		trusted []netip.Prefix
		xff     string // sent by the client to nginx
		fwd     string // Forwarded sent by the client, passed on by nginx
		want    string
	}{
		// nginx appends the peer (127.0.0.1): trusted, so the client's own
		// entry is next; a forged one to its left is ignored.
		{"trusted", []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, "198.51.100.66, 203.0.113.7", "", "client=203.0.113.7"},
		{"untrusted", nil, "203.0.113.7", "", "client=127.0.0.1"},
		// A forged Forwarded is never read: brisk reads X-Forwarded-For.
		{"spoofed_forwarded", []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, "", "for=198.51.100.66", "client=127.0.0.1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			backend := testserver.Start(t, testserver.Quiet(&brisk.Server{TrustedProxies: tc.trusted, Handler: ipHandler}))
			front := fmt.Sprintf("127.0.0.1:%d", freeport.Port(t))
			startNginx(t, front, fmt.Sprintf(`events { worker_connections 64; }
http {
	access_log off;
	upstream brisk { server %s; keepalive 4; }
	server {
		listen %s;
		location / {
			proxy_pass http://brisk;
			proxy_http_version 1.1;
			proxy_set_header Connection "";
			proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
		}
	}
}`, backend, front))
			kc := newClient()
			req := "http://" + front + "/"
			r := newRequest(t, req, tc.xff)
			if tc.fwd != "" {
				r.Header.Set("Forwarded", tc.fwd)
			}
			code, body := kc.do(t, r)
			if !strings.HasPrefix(body, tc.want+" ") {
				t.Fatalf("%d %q, want %q...", code, body, tc.want)
			}
		})
	}
}
