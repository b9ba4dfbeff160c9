package lb

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// need returns the path of a program, or skips the test.
func need(t *testing.T, name string) string {
	t.Helper()
	if path, err := exec.LookPath(name); err == nil {
		return path
	}
	for _, dir := range []string{"/usr/sbin", "/sbin"} {
		if p := filepath.Join(dir, name); fileExists(p) {
			return p
		}
	}
	t.Skipf("%s not installed (apt-get install haproxy nginx-light libnginx-mod-stream; .ci/run does)", name)
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// serveBrisk runs s on a loopback port until the test ends, its log
// discarded unless s has a Logger, and returns its address.
func serveBrisk(t *testing.T, s *brisk.Server) string {
	t.Helper()
	if s.Logger == nil {
		s.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return testserver.Start(t, s)
}

// startProcess runs a load balancer until the test ends and waits until
// it accepts connections on addr.
func startProcess(t *testing.T, addr, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("%s output:\n%s", filepath.Base(name), out.String())
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not listen on %s: %v\n%s", name, addr, err, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// writeConfig writes a configuration file into the test's directory.
func writeConfig(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// remoteHandler answers with the client address brisk reports and the
// peer it is connected to.
func remoteHandler(c *brisk.Ctx) {
	fmt.Fprintf(&c.Response, "remote=%s peer=%s", c.RemoteAddr(), c.PeerAddr())
}

// keepAliveClient is a client whose connections report their local
// address, the "real client" the load balancer must pass on.
type keepAliveClient struct {
	http.Client
	mu    sync.Mutex
	local string
}

func newClient() *keepAliveClient {
	kc := &keepAliveClient{}
	d := &net.Dialer{Timeout: 5 * time.Second}
	kc.Transport = &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err == nil {
			kc.mu.Lock()
			kc.local = c.LocalAddr().String()
			kc.mu.Unlock()
		}
		return c, err
	}, MaxIdleConnsPerHost: 1}
	kc.Timeout = 10 * time.Second
	return kc
}

// get returns the status and body of GET url.
func (kc *keepAliveClient) get(t *testing.T, url string) (int, string) {
	t.Helper()
	return kc.do(t, newRequest(t, url, ""))
}

// do sends r and returns the status and body of its response.
func (kc *keepAliveClient) do(t *testing.T, r *http.Request) (int, string) {
	t.Helper()
	resp, err := kc.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func (kc *keepAliveClient) localAddr() string {
	kc.mu.Lock()
	defer kc.mu.Unlock()
	return kc.local
}

// newRequest is GET url with an X-Forwarded-For field unless xff is
// empty.
func newRequest(t *testing.T, url, xff string) *http.Request {
	t.Helper()
	r, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if xff != "" {
		r.Header.Set("X-Forwarded-For", xff)
	}
	return r
}
