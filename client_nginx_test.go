package brisk

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/freeport"
)

// startNginx runs nginx on loopback with a generated configuration:
// /gzip answers text with "gzip on", /small refuses bodies over 1 KiB,
// and /up streams request bodies (no buffering) to upstream, a brisk
// server. It skips the test when nginx is not installed.
func startNginx(t *testing.T, upstream string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "brisk-nginx-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o777)
	addr := freeport.Addr(t)
	conf := fmt.Sprintf(`daemon off;
master_process off;
error_log %[1]s/error.log;
pid %[1]s/nginx.pid;
events { worker_connections 64; }
http {
	access_log off;
	client_body_temp_path %[1]s/body;
	proxy_temp_path %[1]s/proxy;
	fastcgi_temp_path %[1]s/fastcgi;
	uwsgi_temp_path %[1]s/uwsgi;
	scgi_temp_path %[1]s/scgi;
	server {
		listen %[2]s;
		location /gzip {
			default_type text/plain;
			gzip on;
			gzip_min_length 0;
			return 200 "%[3]s";
		}
		location /small {
			client_max_body_size 1k;
			proxy_pass http://%[4]s;
		}
		location /up {
			client_max_body_size 0;
			proxy_request_buffering off;
			proxy_http_version 1.1;
			proxy_pass http://%[4]s;
		}
	}
}
`, dir, addr, strings.Repeat("nginx gzips this. ", 200), strings.TrimPrefix(upstream, "http://"))
	cf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(cf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	startProcess(t, addr, "nginx", "nginx", "-c", cf, "-p", dir)
	return "http://" + addr
}

// TestClientNginx: decoding nginx's gzip; 100-continue answered 413 by
// nginx (body not sent) and continued by it; a streamed upload through
// nginx to a brisk server, 1 GiB chunked with constant client memory.
func TestClientNginx(t *testing.T) {
	upstream := startStreamServer(t, &Server{Handler: sumHandler, MaxBodyBytes: -1})
	url := startNginx(t, upstream)
	c := Client{ClientConfig: ClientConfig{ExpectContinueTimeout: time.Minute}}
	t.Run("gzip", func(t *testing.T) {
		var req Request
		var resp Response
		req.SetURI(url + "/gzip")
		if err := c.Do(&req, &resp); err != nil {
			t.Fatal(err)
		}
		if string(resp.Body()) != strings.Repeat("nginx gzips this. ", 200) || resp.Header.Has("Content-Encoding") {
			t.Errorf("body %.30q (%d bytes), Content-Encoding %q", resp.Body(), len(resp.Body()), resp.Header.Get("Content-Encoding"))
		}
	})
	for _, tc := range []struct {
		path   string
		size   int64
		status int
		read   int64
	}{
		{"/small", 1 << 20, 413, 0},
		{"/up", 1 << 20, 200, 1 << 20},
	} {
		t.Run("expect"+tc.path, func(t *testing.T) {
			var req Request
			var resp Response
			req.SetMethod("POST")
			req.SetURI(url + tc.path)
			req.Header.Set("Expect", "100-continue")
			body := &countReader{r: &genReader{n: tc.size}}
			req.SetBodyStream(body, tc.size)
			start := time.Now()
			if err := c.DoTimeout(&req, &resp, 20*time.Second); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode() != tc.status || body.n.Load() != tc.read || time.Since(start) > 10*time.Second {
				t.Errorf("status %d, %d bytes read in %v; want %d, %d", resp.StatusCode(), body.n.Load(), time.Since(start), tc.status, tc.read)
			}
		})
	}
	t.Run("upload_1GiB", func(t *testing.T) {
		if testing.Short() {
			t.Skip("streams 1 GiB; skipped with -short")
		}
		const n = 1 << 30
		var req Request
		var resp Response
		req.SetMethod("PUT")
		req.SetURI(url + "/up")
		req.SetBodyStream(&genReader{n: n}, -1)
		uc := Client{ClientConfig: ClientConfig{Timeout: 2 * time.Minute}}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := uc.Do(&req, &resp)
		runtime.ReadMemStats(&after)
		if err != nil || !strings.HasPrefix(string(resp.Body()), strconv.Itoa(n)+" ") {
			t.Fatalf("err %v, upstream got %q", err, resp.Body())
		}
		heap := int64(after.HeapInuse) - int64(before.HeapInuse)
		sys := int64(after.Sys) - int64(before.Sys)
		t.Logf("1 GiB chunked upload through nginx: HeapInuse %+d KiB, Sys %+d KiB", heap>>10, sys>>10)
		if heap > 32<<20 || sys > 32<<20 {
			t.Errorf("memory grew: HeapInuse %+d, Sys %+d bytes; want < 32 MiB", heap, sys)
		}
	})
}
