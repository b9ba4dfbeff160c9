package lb

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// lbInstall is what provides the programs of this suite.
const lbInstall = "apt-get install haproxy nginx-light libnginx-mod-stream"

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
