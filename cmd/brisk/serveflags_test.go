package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestOperatorFlags: each flag sets its brisk.Server field; zero leaves
// the field as serve set it.
func TestOperatorFlags(t *testing.T) {
	var o operatorOptions
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	o.addFlags(fs)
	err := fs.Parse([]string{"-max-conns=7", "-max-requests-per-conn=9", "-max-body-bytes=1024",
		"-read-header-timeout=3s", "-read-timeout=-1s", "-idle-timeout=4s", "-tls-handshake-timeout=5s",
		"-min-request-body-rate=-1", "-min-response-rate=1000", "-no-park-idle", "-park-idle-after=1s",
		"-shutdown-timeout=2m"})
	if err != nil {
		t.Fatal(err)
	}
	srv := &brisk.Server{WriteTimeout: time.Minute}
	o.writeTimeout = 0 // as serveOptions built without flags
	o.apply(srv)
	want := brisk.Server{MaxConns: 7, MaxRequestsPerConn: 9, MaxBodyBytes: 1024,
		ReadHeaderTimeout: 3 * time.Second, ReadTimeout: -time.Second, WriteTimeout: time.Minute,
		IdleTimeout: 4 * time.Second, TLSHandshakeTimeout: 5 * time.Second,
		MinRequestBodyRate: -1, MinResponseRate: 1000, NoParkIdle: true, ParkIdleAfter: time.Second}
	got := fmt.Sprintf("%d %d %d %v %v %v %v %v %d %d %v %v", srv.MaxConns, srv.MaxRequestsPerConn, srv.MaxBodyBytes,
		srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout, srv.TLSHandshakeTimeout,
		srv.MinRequestBodyRate, srv.MinResponseRate, srv.NoParkIdle, srv.ParkIdleAfter)
	wantS := fmt.Sprintf("%d %d %d %v %v %v %v %v %d %d %v %v", want.MaxConns, want.MaxRequestsPerConn, want.MaxBodyBytes,
		want.ReadHeaderTimeout, want.ReadTimeout, want.WriteTimeout, want.IdleTimeout, want.TLSHandshakeTimeout,
		want.MinRequestBodyRate, want.MinResponseRate, want.NoParkIdle, want.ParkIdleAfter)
	if got != wantS {
		t.Fatalf("fields %s, want %s", got, wantS)
	}
	if d := o.shutdownDeadline(); d != 2*time.Minute {
		t.Fatalf("shutdown deadline %v", d)
	}
	for set, want := range map[time.Duration]time.Duration{0: defaultShutdownTimeout, time.Second: time.Second} {
		if d := (&operatorOptions{shutdownTimeout: set}).shutdownDeadline(); d != want {
			t.Errorf("-shutdown-timeout %v: %v, want %v", set, d, want)
		}
	}
	if d := (&operatorOptions{shutdownTimeout: -1}).shutdownDeadline(); d < 24*time.Hour {
		t.Errorf("-shutdown-timeout -1: %v, want no limit", d)
	}
}

// TestShutdownTimeoutCutsAndLogs: a download still going at
// -shutdown-timeout is cut, logged with its target, and serve exits 1.
func TestShutdownTimeoutCutsAndLogs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big"), make([]byte, 64<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	o := serveOptions{addr: "127.0.0.1:0", root: dir}
	o.ops.shutdownTimeout = 300 * time.Millisecond
	url, stderr, stop := startServe(t, o)
	nc, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	fmt.Fprint(nc, "GET /static/big HTTP/1.1\r\nHost: x\r\n\r\n") // and never read: the write blocks
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	if code := stop(); code != exitFail {
		t.Fatalf("exit %d, want %d\n%s", code, exitFail, stderr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("serve took %v to cut the download", d)
	}
	log := stderr.String()
	if !strings.Contains(log, "response cut by Close") || !strings.Contains(log, "target=/static/big") ||
		!strings.Contains(log, "shutdown: context deadline exceeded after 300ms") {
		t.Fatalf("log:\n%s", log)
	}
}
