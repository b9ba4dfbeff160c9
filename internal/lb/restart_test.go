//go:build unix

package lb

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// buildBrisk builds cmd/brisk into the test's directory.
func buildBrisk(t *testing.T) string {
	t.Helper()
	goBin := need(t, "go")
	bin := filepath.Join(t.TempDir(), "brisk")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, goBin, "build", "-o", bin, "github.com/brisk-http/brisk/cmd/brisk").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// readPID waits until the pid file names a process other than old.
func readPID(t *testing.T, file string, old int) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(file)
		if err == nil {
			if pid, err := strconv.Atoi(string(bytes.TrimSpace(b))); err == nil && pid != old {
				return pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("pid file %s still names %d", file, old)
	return 0
}

// TestRollingRestartThroughHAProxy: brisk serve behind HAProxy (PROXY v2,
// keep-alive) is restarted three times with SIGHUP while clients send
// requests at full speed: no request fails, and every response names the
// real client.
func TestRollingRestartThroughHAProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("rolling restart takes a few seconds")
	}
	need(t, "haproxy")
	bin := buildBrisk(t)
	backend := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	pidFile := filepath.Join(t.TempDir(), "brisk.pid")
	out := &syncBuffer{}
	cmd := exec.Command(bin, "serve", "-addr", backend, "-echo", "-proxy-protocol", "127.0.0.1", "-pidfile", pidFile)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go cmd.Wait()
	pid := readPID(t, pidFile, 0)
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			if p, err := strconv.Atoi(string(bytes.TrimSpace(b))); err == nil {
				syscall.Kill(p, syscall.SIGINT)
			}
		}
		cmd.Process.Kill()
		if t.Failed() {
			t.Logf("brisk output:\n%s", out.String())
		}
	})
	front := startHAProxy(t, backend)

	const clients = 8
	var ok, failed atomic.Int64
	var firstErr atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			kc := newClient()
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := kc.Get("http://" + front + "/r")
				if err == nil {
					var doc struct{ Remote string }
					err = json.NewDecoder(resp.Body).Decode(&doc)
					resp.Body.Close()
					if err == nil && resp.StatusCode != 200 {
						err = fmt.Errorf("status %d", resp.StatusCode)
					}
					if err == nil {
						remote, _ := base64.StdEncoding.DecodeString(doc.Remote)
						if string(remote) != kc.localAddr() {
							err = fmt.Errorf("remote %q, want the client %q", remote, kc.localAddr())
						}
					}
				}
				if err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err)
					continue
				}
				ok.Add(1)
			}
		}()
	}
	const restarts = 3
	for i := range restarts {
		time.Sleep(time.Second)
		before := ok.Load()
		if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		pid = readPID(t, pidFile, pid)
		t.Logf("restart %d: new pid %d, %d requests served before it", i+1, pid, before)
	}
	time.Sleep(time.Second)
	close(stop)
	wg.Wait()
	t.Logf("rolling restart x%d through HAProxy: %d requests ok, %d failed", restarts, ok.Load(), failed.Load())
	if failed.Load() != 0 {
		t.Fatalf("%d requests failed, first: %v", failed.Load(), firstErr.Load())
	}
	if ok.Load() < 100 {
		t.Fatalf("only %d requests served", ok.Load())
	}
}
