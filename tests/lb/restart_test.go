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

	"github.com/brisk-http/brisk/internal/testsupport/freeport"
	"github.com/brisk-http/brisk/internal/testsupport/peer"
	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
)

// buildBrisk builds cmd/brisk into the test's directory.
func buildBrisk(t *testing.T) string {
	t.Helper()
	goBin := peer.Need(t, "go", "the Go toolchain")
	bin := filepath.Join(t.TempDir(), "brisk")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, "build", "-o", bin, ".")
	// In the command's directory: it is a module of its own, which its
	// replace directives build from this tree, with or without go.work.
	cmd.Dir = filepath.Join("..", "..", "cmd", "brisk")
	// For the machine the test runs on, which runs the binary; a test
	// binary cross-built for another GOARCH (CI's arm64 step under qemu)
	// would otherwise build one it cannot execute.
	cmd.Env = append(os.Environ(), "GOOS=", "GOARCH=")
	out, err := cmd.CombinedOutput()
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
	peer.Need(t, "haproxy", lbInstall)
	bin := buildBrisk(t)
	backend := fmt.Sprintf("127.0.0.1:%d", freeport.Port(t))
	pidFile := filepath.Join(t.TempDir(), "brisk.pid")
	out := &syncbuf.Buffer{}
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

	ld := startLoad(front, 8)
	const restarts = 3
	for i := range restarts {
		time.Sleep(time.Second)
		before := ld.ok.Load()
		if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		pid = readPID(t, pidFile, pid)
		t.Logf("restart %d: new pid %d, %d requests served before it", i+1, pid, before)
	}
	time.Sleep(time.Second)
	ld.finish(t, fmt.Sprintf("rolling restart x%d through HAProxy", restarts))
}

// load is clients sending requests through a front end as fast as they
// can, each checking that the response is an echo document naming it.
type load struct {
	ok, failed atomic.Int64
	firstErr   atomic.Value
	stop       chan struct{}
	wg         sync.WaitGroup
}

func startLoad(front string, clients int) *load {
	ld := &load{stop: make(chan struct{})}
	for range clients {
		ld.wg.Add(1)
		go ld.run(front)
	}
	return ld
}

func (ld *load) run(front string) {
	defer ld.wg.Done()
	kc := newClient()
	for {
		select {
		case <-ld.stop:
			return
		default:
		}
		if err := kc.echo("http://" + front + "/r"); err != nil {
			ld.failed.Add(1)
			ld.firstErr.CompareAndSwap(nil, err)
			continue
		}
		ld.ok.Add(1)
	}
}

// finish stops the load and fails the test unless every request succeeded.
func (ld *load) finish(t *testing.T, what string) {
	t.Helper()
	close(ld.stop)
	ld.wg.Wait()
	t.Logf("%s: %d requests ok, %d failed", what, ld.ok.Load(), ld.failed.Load())
	if ld.failed.Load() != 0 {
		t.Fatalf("%d requests failed, first: %v", ld.failed.Load(), ld.firstErr.Load())
	}
	if ld.ok.Load() < 100 {
		t.Fatalf("only %d requests served", ld.ok.Load())
	}
}

// echo gets an echo document and checks its status and "remote".
func (kc *keepAliveClient) echo(url string) error {
	resp, err := kc.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var doc struct{ Remote string }
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return err
	}
	if resp.StatusCode != 200 {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	if remote, _ := base64.StdEncoding.DecodeString(doc.Remote); string(remote) != kc.localAddr() {
		return fmt.Errorf("remote %q, want the client %q", remote, kc.localAddr())
	}
	return nil
}

// startServeProcess runs bin serve with args and a pid file until the test
// ends, and returns its pid and whether it exited.
func startServeProcess(t *testing.T, bin string, args ...string) (pid int, exited <-chan struct{}) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "brisk.pid")
	out := &syncbuf.Buffer{}
	cmd := exec.Command(bin, append(append([]string{"serve"}, args...), "-pidfile", pidFile)...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		if t.Failed() {
			t.Logf("brisk %v output:\n%s", args, out.String())
		}
	})
	return readPID(t, pidFile, 0), done
}

// migrateQueuedConnections sets net.ipv4.tcp_migrate_req to 1 for the
// test (Linux 5.14+, root), as the README's deployment section says to:
// without it the kernel resets the connections still queued on a
// SO_REUSEPORT socket that closes, instead of moving them to the others.
func migrateQueuedConnections(t *testing.T) {
	const knob = "/proc/sys/net/ipv4/tcp_migrate_req"
	old, err := os.ReadFile(knob)
	if err == nil {
		err = os.WriteFile(knob, []byte("1\n"), 0o644)
	}
	if err != nil {
		t.Skipf("cannot set %s (%v): a drained process would drop its queued connections", knob, err)
	}
	t.Cleanup(func() { os.WriteFile(knob, old, 0o644) })
}

// TestDrainUnderLoadThroughHAProxy: two brisk serve processes share a
// port with SO_REUSEPORT behind HAProxy; one gets SIGTERM (drain, then
// shut down) while clients send requests at full speed: no request fails
// and the other process serves on.
func TestDrainUnderLoadThroughHAProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("takes a few seconds")
	}
	peer.Need(t, "haproxy", lbInstall)
	migrateQueuedConnections(t)
	bin := buildBrisk(t)
	backend := fmt.Sprintf("127.0.0.1:%d", freeport.Port(t))
	// A short -drain-delay keeps the test well inside its wait for exit.
	args := []string{"-addr", backend, "-reuseport", "1", "-echo", "-proxy-protocol", "127.0.0.1", "-drain-delay", "1s"}
	first, firstExited := startServeProcess(t, bin, args...)
	startServeProcess(t, bin, args...)
	front := startHAProxy(t, backend)
	ld := startLoad(front, 8)
	time.Sleep(time.Second)
	if err := syscall.Kill(first, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-firstExited:
	case <-time.After(15 * time.Second):
		t.Fatal("the drained process did not exit")
	}
	before := ld.ok.Load()
	time.Sleep(time.Second)
	if ld.ok.Load() == before {
		t.Fatal("nothing served after the drained process exited")
	}
	ld.finish(t, "drain + Shutdown of one of two SO_REUSEPORT processes through HAProxy")
}
