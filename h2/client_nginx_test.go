package h2

import (
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/brisk-http/brisk/internal/testsupport/certs"
	"github.com/brisk-http/brisk/internal/testsupport/freeport"
	"github.com/brisk-http/brisk/internal/testsupport/peer"
)

// nginxHTTP2Listen returns how nginx at path turns HTTP/2 on for a TLS
// server block listening on addr: "http2 on" from nginx 1.25.1, the
// listen parameter "http2" before. It skips the test when nginx was
// built without HTTP/2.
func nginxHTTP2Listen(t *testing.T, path, addr string) string {
	out, err := exec.Command(path, "-V").CombinedOutput()
	if err != nil {
		t.Fatalf("nginx -V: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--with-http_v2_module") {
		t.Skip("nginx was built without HTTP/2 (no --with-http_v2_module)")
	}
	m := regexp.MustCompile(`nginx/(\d+)\.(\d+)\.(\d+)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("nginx -V: no version in %q", out)
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	patch, _ := strconv.Atoi(m[3])
	if major > 1 || minor > 25 || minor == 25 && patch >= 1 {
		return "listen " + addr + " ssl;\n\t\thttp2 on;"
	}
	return "listen " + addr + " ssl http2;"
}

// startNginxH2 runs nginx with HTTP/2 over TLS on loopback in front of
// peerHandler (an HTTP/1.1 upstream: bodies streamed both ways, no
// buffering); /trailer and /bighead are nginx's own (add_trailer,
// add_header), /gzip is compressed by nginx.
func startNginxH2(t *testing.T) *h2Peer {
	path := peer.Need(t, "nginx", "Debian package nginx")
	st := newPeerState()
	up := httptest.NewServer(peerHandler(st))
	t.Cleanup(func() { close(st.release); up.Close() })
	dir := t.TempDir()
	os.Chmod(dir, 0o777)
	c, _ := testCert(t)
	certPEM, keyPEM, err := certs.PEM(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cert.pem"), certPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "key.pem"), keyPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gzip.txt"), []byte(strings.Repeat("gzipped over h2. ", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := freeport.Addr(t)
	var big strings.Builder
	for i := range 25 { // 75 KB of fields: over the client's 64 KiB
		fmt.Fprintf(&big, "\t\t\tadd_header X-Big-%d %s;\n", i, strings.Repeat("b", 3000))
	}
	conf := fmt.Sprintf(`daemon off;
master_process off;
error_log %[1]s/error.log;
pid %[1]s/nginx.pid;
events { worker_connections 1024; }
http {
	access_log off;
	client_body_temp_path %[1]s/body;
	proxy_temp_path %[1]s/proxy;
	fastcgi_temp_path %[1]s/fastcgi;
	uwsgi_temp_path %[1]s/uwsgi;
	scgi_temp_path %[1]s/scgi;
	server {
		%[2]s
		ssl_certificate %[1]s/cert.pem;
		ssl_certificate_key %[1]s/key.pem;
		location / {
			client_max_body_size 0;
			proxy_request_buffering off;
			proxy_buffering off;
			proxy_http_version 1.1;
			proxy_pass %[3]s;
		}
		location = /gzip {
			default_type text/plain;
			gzip on;
			gzip_min_length 0;
			alias %[1]s/gzip.txt;
		}
		location = /trailer {
			default_type text/plain;
			add_trailer X-Checksum c0ffee;
			return 200 "body";
		}
		location = /bighead {
%[4]s			return 204;
		}
	}
}
`, dir, nginxHTTP2Listen(t, path, addr), up.URL, big.String())
	cf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(cf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	peer.Start(t, addr, path, "-c", cf, "-p", dir)
	return &h2Peer{url: "https://" + addr, state: st, proxy: true}
}

// TestClientH2Nginx runs the client's HTTP/2 cases against nginx.
func TestClientH2Nginx(t *testing.T) {
	runH2Cases(t, startNginxH2(t))
}
