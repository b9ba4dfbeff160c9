package bench

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tcpchild variant of BenchmarkClientGetEndToEnd: the hello server
// runs in a child process (this test binary, re-run as
// TestHelloServerProcess), so that the benchmark process holds the client
// alone and its cpu-ns/op (process CPU time: client goroutines, runtime,
// GC and the kernel time of the client's system calls) is the client's
// cost per request. The child's CPU time per request is reported as
// srv-cpu-ns/op, to show that the server did the same work for every
// client. ns/op is still a round trip through the server and the kernel.

// helloChildEnv, set to "1", makes TestHelloServerProcess serve.
const helloChildEnv = "BRISK_BENCH_HELLO_CHILD"

// TestHelloServerProcess is the child's entry point, skipped unless
// helloChildEnv is set. It serves the hello server on a loopback port,
// prints "addr HOST:PORT", then answers each "cpu" line on its standard
// input with the process's CPU time in nanoseconds, and exits when its
// standard input closes (the parent ended or gave up on it).
func TestHelloServerProcess(t *testing.T) {
	if os.Getenv(helloChildEnv) != "1" {
		t.Skip("the child process of the tcpchild client benchmarks")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := helloServer()
	go s.Serve(ln)
	defer s.Shutdown()
	fmt.Printf("addr %s\n", ln.Addr())
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if in.Text() == "cpu" {
			fmt.Printf("cpu %d\n", cpuNanos(clockProcessCPUTime))
		}
	}
}

// helloChild is a running child server.
type helloChild struct {
	cmd *exec.Cmd
	in  *os.File      // the child's standard input (write end)
	out *bufio.Reader // the child's standard output
}

// tcpChildEndpoint starts a hello server in a child process, stopped when
// the benchmark ends.
func tcpChildEndpoint(b *testing.B) endpoint {
	ch, addr := startChild(b, "TestHelloServerProcess", helloChildEnv)
	return endpoint{uri: "http://" + addr + "/plaintext", serverCPU: ch.cpuClock}
}

// startChild runs this test binary again as a child process running
// test, with env set to "1", until the benchmark ends, and returns it
// and the address it prints ("addr HOST:PORT", as TestHelloServerProcess
// does).
func startChild(b *testing.B, test, env string) (*helloChild, string) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", "^"+test+"$", "-test.bench", "^$", "-test.count", "1")
	cmd.Env = append(os.Environ(), env+"=1")
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		b.Fatal(err)
	}
	ch := &helloChild{cmd: cmd, in: inW, out: bufio.NewReader(outR)}
	b.Cleanup(func() { ch.stop(); outR.Close() })
	addr, err := ch.line("addr")
	if err != nil {
		b.Fatal(err)
	}
	return ch, addr
}

// line reads the child's next output line starting with key and returns
// the rest, within 10 s.
func (ch *helloChild) line(key string) (string, error) {
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			ch.cmd.Process.Kill()
		}
	}()
	for {
		s, err := ch.out.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("hello child: waiting for %q: %w", key, err)
		}
		if rest, ok := strings.CutPrefix(strings.TrimSpace(s), key+" "); ok {
			return rest, nil
		}
	}
}

// cpuNanos returns the child's CPU time so far, in nanoseconds.
func (ch *helloChild) cpuNanos() (int64, error) {
	if _, err := ch.in.WriteString("cpu\n"); err != nil {
		return 0, err
	}
	s, err := ch.line("cpu")
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(s, 10, 64)
}

// cpuClock reports "srv-cpu-ns/op", the child's CPU time per op: call it
// after b.ResetTimer and the returned stop after the benchmark loop.
func (ch *helloChild) cpuClock(b *testing.B) (stop func()) {
	start, err := ch.cpuNanos()
	if err != nil {
		b.Fatal(err)
	}
	return func() {
		end, err := ch.cpuNanos()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(end-start)/float64(b.N), "srv-cpu-ns/op")
	}
}

// stop closes the child's input, which makes it exit, and waits for it
// (killing it after 5 s).
func (ch *helloChild) stop() {
	ch.in.Close()
	t := time.AfterFunc(5*time.Second, func() { ch.cmd.Process.Kill() })
	ch.cmd.Wait()
	t.Stop()
}
