//go:build linux

package brisk

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// acceptChildEnv makes the test binary run acceptEMFILEChild.
const acceptChildEnv = "BRISK_TEST_ACCEPT_CHILD"

// TestAcceptEMFILE: a server process with a low RLIMIT_NOFILE, given
// more connections than it has descriptors for, logs the Accept error
// with its retry delay (once per second, not per failure), counts it in
// AcceptErrors, and serves again once connections close.
func TestAcceptEMFILE(t *testing.T) {
	if os.Getenv(acceptChildEnv) != "" {
		acceptEMFILEChild()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAcceptEMFILE$")
	cmd.Env = append(os.Environ(), acceptChildEnv+"=1")
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		skipIfNotExecutable(t, err)
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	br := bufio.NewReader(out)
	addr, err := br.ReadString('\n')
	if err != nil {
		t.Fatalf("child: %v\n%s", err, stderr)
	}
	addr = strings.TrimSpace(addr)

	var conns []net.Conn
	for range 40 { // more than the child has descriptors for
		nc, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, nc)
	}
	time.Sleep(1500 * time.Millisecond) // Accept fails, is retried, logged
	for _, nc := range conns {
		nc.Close()
	}
	// Served again: the retries back off to at most a second.
	nc, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprint(nc, "GET /errors HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := readResponse(nc)
	if err != nil {
		t.Fatalf("after the connections closed: %v\nchild log:\n%s", err, stderr)
	}
	n, _ := strconv.Atoi(resp)
	cmd.Process.Kill()
	cmd.Wait()
	log := stderr.String()
	lines := strings.Count(log, "brisk: Accept error; retrying")
	if n == 0 || lines == 0 || lines > 4 || !strings.Contains(log, "too many open files") || !strings.Contains(log, "retry_in=") {
		t.Fatalf("AcceptErrors %d, %d log lines (want 1..4 for 1.5 s):\n%s", n, lines, log)
	}
	t.Logf("AcceptErrors %d, %d log lines", n, lines)
}

// readResponse reads a response and returns its body.
func readResponse(nc net.Conn) (string, error) {
	b, err := io.ReadAll(nc)
	if err != nil && len(b) == 0 {
		return "", err
	}
	_, body, ok := strings.Cut(string(b), "\r\n\r\n")
	if !ok {
		return "", fmt.Errorf("no response: %q", b)
	}
	return body, nil
}

// acceptEMFILEChild serves with few descriptors: those open now and 8
// more. GET /errors answers AcceptErrors and closes.
func acceptEMFILEChild() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	s := &Server{Logger: slog.New(slog.NewTextHandler(os.Stderr, nil)), IdleTimeout: -1}
	s.Handler = func(c *Ctx) {
		c.Response.Header.Set("Connection", "close")
		fmt.Fprint(&c.Response, s.AcceptErrors())
	}
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		panic(err)
	}
	lim := syscall.Rlimit{Cur: uint64(len(entries) + 8)}
	var old syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old)
	lim.Max = old.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		panic(err)
	}
	fmt.Println(ln.Addr())
	s.Serve(ln)
}
