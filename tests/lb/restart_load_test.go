//go:build unix

package lb

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/freeport"
	"github.com/brisk-http/brisk/internal/testsupport/peer"
	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
	loadgen "github.com/brisk-http/brisk/load"
)

// restartDownload is the size of the file the download clients fetch.
const restartDownload = 1 << 20

// TestRestartDropsNothing: `brisk serve` restarted five times with
// SIGHUP, while keep-alive, pipelined, upload and download clients (the
// load package, and curl fetching files over keep-alive) run at full
// speed, fails no request: directly (one socket, or two SO_REUSEPORT
// ones, all handed over), and behind HAProxy set up not to
// retry (retries 0, no retry-on, reusing idle server connections), so a
// request lost by the server is a failed request.
func TestRestartDropsNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("restarts under load take about 35 s")
	}
	curl := peer.Need(t, "curl", "apt-get install curl")
	bin := buildBrisk(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "big"), bytes.Repeat([]byte("0123456789abcdef"), restartDownload/16), 0o644); err != nil {
		t.Fatal(err)
	}
	upload := filepath.Join(t.TempDir(), "upload")
	if err := os.WriteFile(upload, bytes.Repeat([]byte("u"), 32<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("direct", func(t *testing.T) {
		backend := fmt.Sprintf("127.0.0.1:%d", freeport.Port(t))
		restartUnderLoad(t, bin, curl, root, upload, backend, backend)
	})
	t.Run("reuseport", func(t *testing.T) {
		backend := fmt.Sprintf("127.0.0.1:%d", freeport.Port(t))
		restartUnderLoad(t, bin, curl, root, upload, backend, backend, "-reuseport", "2")
	})
	t.Run("haproxy", func(t *testing.T) {
		peer.Need(t, "haproxy", lbInstall)
		backend := fmt.Sprintf("127.0.0.1:%d", freeport.Port(t))
		restartUnderLoad(t, bin, curl, root, upload, backend, startHAProxyNoRetry(t, backend))
	})
}

// restartUnderLoad serves root on backend (brisk serve with extra
// arguments), runs the clients against front and restarts the server
// five times; it fails the test on any failed request.
func restartUnderLoad(t *testing.T, bin, curl, root, upload, backend, front string, extra ...string) {
	pidFile := filepath.Join(t.TempDir(), "brisk.pid")
	out := &syncbuf.Buffer{}
	args := append([]string{"serve", "-addr", backend, "-root", root, "-pidfile", pidFile}, extra...)
	cmd := exec.Command(bin, args...)
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

	base := "http://" + front
	clients := map[string]loadgen.Config{
		"keep-alive": {URL: base + "/plaintext", Connections: 16},
		"pipelined":  {URL: base + "/plaintext", Connections: 4, Pipeline: 8},
		"upload":     {URL: base + "/echo", Connections: 4, Method: "POST", BodyFile: upload, Header: []string{"Content-Type: application/octet-stream"}},
		"download":   {URL: base + "/static/big", Connections: 4},
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	results := map[string]*loadgen.Result{}
	var mu sync.Mutex
	for name, c := range clients {
		c.Duration, c.Timeout = time.Hour, 10*time.Second // until cancelled
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := loadgen.Run(ctx, c, nil)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
			mu.Lock()
			results[name] = res
			mu.Unlock()
		}()
	}
	dl := startCurlDownloads(ctx, curl, base+"/static/big", 2)

	const restarts = 5
	for range restarts {
		time.Sleep(1500 * time.Millisecond)
		if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		pid = readPID(t, pidFile, pid)
	}
	time.Sleep(2 * time.Second) // the last old process drains under load
	cancel()
	wg.Wait()
	dl.wait()

	var failed int64
	for name, res := range results {
		t.Logf("%s: %d responses, %d failed %v", name, res.Requests, res.ErrorCount(), firstErrors(res))
		failed += res.ErrorCount()
		if res.Status[2] < 10 { // a few, even under -race or qemu
			t.Errorf("%s: only %d 2xx responses", name, res.Status[2])
		}
	}
	t.Logf("curl: %d downloads of %d bytes, %d failed %s", dl.ok.Load(), restartDownload, dl.failed.Load(), dl.firstErr())
	if failed != 0 || dl.failed.Load() != 0 || len(results) != len(clients) {
		t.Fatalf("%d requests of the load clients and %d curl downloads failed over %d restarts", failed, dl.failed.Load(), restarts)
	}
	if dl.ok.Load() == 0 {
		t.Fatal("curl downloaded nothing")
	}
}

// firstErrors lists the first error of each kind that occurred.
func firstErrors(res *loadgen.Result) []string {
	var s []string
	for k, err := range res.FirstErrors {
		if err != nil {
			s = append(s, fmt.Sprintf("%v: %v", loadgen.ErrorKind(k), err))
		}
	}
	return s
}

// curlDownloads are curl processes each fetching a file over one
// keep-alive connection several times per run, checking every size.
type curlDownloads struct {
	ok, failed atomic.Int64
	mu         sync.Mutex
	first      string
	wg         sync.WaitGroup
}

func startCurlDownloads(ctx context.Context, curl, url string, n int) *curlDownloads {
	d := &curlDownloads{}
	const perRun = 8 // URLs per curl run, on one connection
	args := []string{"-sS", "--max-time", "20", "-w", "%{http_code} %{size_download} %{num_connects}\n"}
	for range perRun {
		args = append(args, "-o", "/dev/null", url)
	}
	for range n {
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			for ctx.Err() == nil {
				out, err := exec.Command(curl, args...).CombinedOutput()
				d.count(string(out), err, perRun)
			}
		}()
	}
	return d
}

// count checks one curl run's output: a line "200 size connects" per
// download.
func (d *curlDownloads) count(out string, err error, want int) {
	good := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "200" && f[1] == strconv.Itoa(restartDownload) {
			good++
		}
	}
	d.ok.Add(int64(good))
	if err == nil && good == want {
		return
	}
	d.failed.Add(int64(want - good))
	d.mu.Lock()
	if d.first == "" {
		d.first = fmt.Sprintf("%v: %q", err, out)
	}
	d.mu.Unlock()
}

func (d *curlDownloads) wait() { d.wg.Wait() }

func (d *curlDownloads) firstErr() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.first
}

// startHAProxyNoRetry runs HAProxy in HTTP mode in front of backend,
// keeping idle server connections for any client (http-reuse always) and
// retrying nothing: a request lost on a server connection fails.
func startHAProxyNoRetry(t *testing.T, backend string) string {
	t.Helper()
	bin := peer.Need(t, "haproxy", lbInstall)
	front := fmt.Sprintf("127.0.0.1:%d", freeport.Port(t))
	cfg := writeConfig(t, "haproxy.cfg", fmt.Sprintf(`global
	maxconn 512
defaults
	mode http
	timeout connect 2s
	timeout client 20s
	timeout server 20s
	option http-keep-alive
	http-reuse always
	retries 0
frontend fe
	bind %s
	default_backend be
backend be
	server brisk %s
`, front, backend))
	peer.Start(t, front, bin, "-db", "-f", cfg)
	return front
}
