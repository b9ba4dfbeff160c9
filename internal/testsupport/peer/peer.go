// Package peer runs the real programs that tests talk to (curl, nginx,
// HAProxy, Squid, Node.js...) and fetches URLs with net/http's client:
// the one copy of the helpers that the suites under tests/ and the
// in-package suites against real peers share. Test support only.
package peer

import (
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// StartTimeout bounds the wait, in Start, until a program accepts
// connections.
const StartTimeout = 15 * time.Second

// Need returns the path of program name, looked up on PATH and then in
// /usr/sbin and /sbin (where Debian puts nginx and HAProxy), or skips the
// test with a message naming name and install, what provides it (for
// instance "Debian package squid").
func Need(t testing.TB, name, install string) string {
	t.Helper()
	if path, err := exec.LookPath(name); err == nil {
		return path
	}
	for _, dir := range []string{"/usr/sbin", "/sbin"} {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	t.Skipf("%s not installed (%s; .ci/run installs it)", name, install)
	return ""
}

// Start runs the program at path with args until the test ends, and
// waits (up to StartTimeout) until addr accepts TCP connections. It fails
// the test if the program exits first or never listens, and logs the
// program's output when the test failed.
func Start(t testing.TB, addr, path string, args ...string) {
	t.Helper()
	name := filepath.Base(path)
	cmd := exec.Command(path, args...)
	out := new(buffer)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("%s output:\n%s", name, out)
		}
	})
	for deadline := time.Now().Add(StartTimeout); ; {
		select {
		case <-exited: // e.g. it could not bind addr: what listens there is not it
			t.Fatalf("%s exited before listening on %s: %s", name, addr, out)
		default:
		}
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not listen on %s: %v\n%s", name, addr, err, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Get fetches url with http.DefaultClient, with the header fields given
// as name, value pairs, and returns the response with its whole body
// read. It fails the test on any error.
func Get(t testing.TB, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// buffer is a strings.Builder safe for a program's stdout and stderr
// written concurrently and read by the test.
type buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
