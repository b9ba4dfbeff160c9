//go:build linux

package lb

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
)

// getText returns the status and body of GET url over a new connection.
func getText(url string) (int, string, error) {
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// TestSystemdSocketActivation: brisk serve started as systemd starts a
// socket-activated service (the listening socket as descriptor 3,
// LISTEN_FDS=1, LISTEN_PID its own) serves on that socket, not on -addr
// (held busy here, so listening on it would fail), and keeps serving on
// it across a SIGHUP restart, whose new process does not take
// LISTEN_FDS for its own.
func TestSystemdSocketActivation(t *testing.T) {
	bin := buildBrisk(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	f, err := ln.(*net.TCPListener).File()
	if err != nil {
		t.Fatal(err)
	}
	ln.Close() // the process's copy (descriptor 3) stays open
	pidFile := filepath.Join(t.TempDir(), "brisk.pid")
	out := &syncbuf.Buffer{}
	// The shell's exec keeps its PID, which is what LISTEN_PID names.
	cmd := exec.Command("sh", "-c", `export LISTEN_PID=$$ LISTEN_FDS=1 LISTEN_FDNAMES=http; exec "$0" "$@"`,
		bin, "serve", "-addr", busy.Addr().String(), "-pidfile", pidFile)
	cmd.ExtraFiles = []*os.File{f}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	go cmd.Wait()
	pid := readPID(t, pidFile, 0)
	t.Cleanup(func() {
		syscall.Kill(pid, syscall.SIGINT)
		cmd.Process.Kill()
		if t.Failed() {
			t.Logf("brisk output:\n%s", out.String())
		}
	})
	if pid != cmd.Process.Pid {
		t.Fatalf("pid file names %d, the process is %d", pid, cmd.Process.Pid)
	}
	url := "http://" + ln.Addr().String() + "/plaintext"
	if code, body, err := getText(url); err != nil || code != 200 || body != "Hello, World!" {
		t.Fatalf("on the systemd socket: %d %q %v", code, body, err)
	}
	if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	pid = readPID(t, pidFile, pid)
	if code, body, err := getText(url); err != nil || code != 200 || body != "Hello, World!" {
		t.Fatalf("after the SIGHUP restart: %d %q %v", code, body, err)
	}
	if strings.Contains(out.String(), "address already in use") {
		t.Fatalf("a process listened on -addr:\n%s", out)
	}
}

// TestSIGHUPAsPID1Refused: as PID 1 of a PID namespace (a container's
// init), brisk serve refuses a SIGHUP restart with a line saying why and
// serves on; SIGTERM still drains and ends it.
func TestSIGHUPAsPID1Refused(t *testing.T) {
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("unshare (util-linux) not installed")
	}
	if out, err := exec.Command(unshare, "-p", "-f", "true").CombinedOutput(); err != nil {
		t.Skipf("cannot make a PID namespace (needs root or user namespaces): %v %s", err, out)
	}
	bin := buildBrisk(t)
	addr := freeAddr(t)
	out := &syncbuf.Buffer{}
	cmd := exec.Command(unshare, "-p", "-f", "--kill-child", bin, "serve", "-addr", addr, "-drain-delay", "100ms")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		if t.Failed() {
			t.Logf("brisk output:\n%s", out.String())
		}
	})
	url := "http://" + addr + "/plaintext"
	deadline := time.Now().Add(10 * time.Second)
	for {
		if code, _, err := getText(url); err == nil && code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("brisk did not serve")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// unshare forwards no signal: find brisk, PID 1 inside, by its parent.
	inner := childOf(t, cmd.Process.Pid)
	if err := syscall.Kill(inner, syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "restart refused: running as PID 1") {
		if time.Now().After(deadline) {
			t.Fatalf("no refusal logged")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code, body, err := getText(url); err != nil || code != 200 || body != "Hello, World!" {
		t.Fatalf("after the refused SIGHUP: %d %q %v", code, body, err)
	}
	syscall.Kill(inner, syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("SIGTERM did not end brisk")
	}
}

// freeAddr returns a loopback address with a port free now.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// childOf returns the PID of the only child of pid, from /proc.
func childOf(t *testing.T, pid int) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
		if err == nil {
			var child int
			if _, err := fmt.Sscan(string(b), &child); err == nil {
				return child
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("process %d has no child", pid)
	return 0
}
