package main

import (
	"net"
	"strings"
	"testing"
	"time"
)

// TestLoadRejectsZeroCounts: -c and -p below 1 are usage errors, not the
// library's defaults, and nothing is sent.
func TestLoadRejectsZeroCounts(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"c_zero", []string{"load", "-c", "0", "http://127.0.0.1:1/"}},
		{"c_negative", []string{"load", "-c", "-3", "http://127.0.0.1:1/"}},
		{"p_zero", []string{"load", "-p", "0", "http://127.0.0.1:1/"}},
		{"c_zero_after_url", []string{"load", "http://127.0.0.1:1/", "-c", "0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(tc.args...)
			if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "brisk load: -c and -p must be at least 1") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, \"\", one line about -c and -p", code, stdout, stderr, exitUsage)
			}
		})
	}
}

// TestLoadConnectRefused: against a port where nothing listens, brisk
// load prints the cause at once, prints no report and exits 1.
func TestLoadConnectRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	start := time.Now()
	code, stdout, stderr := runArgs("load", "-d", "10s", "http://"+addr+"/")
	want := "brisk load: cannot connect to " + addr + ": connection refused\n"
	if code != exitFail || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want %d, \"\", %q", code, stdout, stderr, exitFail, want)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v, want an answer at once", d)
	}
}

// TestLoadAllFail: against a server that answers every request with bytes
// that are not HTTP, brisk load prints no latency, says which parse error
// it met and that every request failed, and exits 1.
func TestLoadAllFail(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.Read(make([]byte, 4096))
				c.Write([]byte("garbage\r\n\r\n"))
			}()
		}
	}()
	code, stdout, stderr := runArgs("load", "-c", "2", "-d", "300ms", "http://"+ln.Addr().String()+"/")
	if code != exitFail || stderr != "" {
		t.Errorf("exit %d, stderr %q; want %d, none", code, stderr, exitFail)
	}
	for _, want := range []string{"\nLatency: no response arrived\n", " failed with no response\n",
		"\nfirst parse error: wire: malformed status line at byte 0\n", "\nstatus: none\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "µs") {
		t.Errorf("report shows a latency:\n%s", stdout)
	}
}
