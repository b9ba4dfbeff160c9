package proxy

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/peer"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
	"github.com/brisk-http/brisk/reverseproxy"
)

// nginxInstall is how .ci/run installs nginx.
const nginxInstall = "apt-get install nginx-light"

// startProxy serves a Proxy to upstream on loopback until the test ends
// and returns its address.
func startProxy(t testing.TB, upstream string) string {
	t.Helper()
	p := &reverseproxy.Proxy{Upstreams: []string{upstream}}
	t.Cleanup(p.CloseIdleConnections)
	return testserver.Start(t, testserver.Quiet(&brisk.Server{Handler: p.Serve}))
}

// startNginx runs nginx with the http block body on listen until the test
// ends.
func startNginx(t *testing.T, listen, body string) {
	t.Helper()
	bin := peer.Need(t, "nginx", nginxInstall)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "nginx.conf")
	text := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 256; }
http {
	access_log off;
	client_body_temp_path %[1]s/body;
	%[2]s
}
`, dir, body)
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	peer.Start(t, listen, bin, "-p", dir, "-c", cfg, "-e", dir+"/error.log")
}
