package main

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/syncbuf"
)

// waitLog waits up to 5 s for stderr to match re and returns the match.
func waitLog(t *testing.T, stderr *syncbuf.Buffer, re *regexp.Regexp) []string {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m
		}
	}
	t.Fatalf("no log line matching %s in:\n%s", re, stderr.String())
	return nil
}

// TestServeAccessLogCutShort: a client that reads 64 KiB of a 32 MiB file
// of -root and resets the connection is logged with status 200, the bytes
// the server wrote (at least what the client read, far less than the
// file) and the write error.
func TestServeAccessLogCutShort(t *testing.T) {
	const size = 32 << 20
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	url, stderr, stop := startServe(t, serveOptions{addr: "127.0.0.1:0", root: dir, log: true})
	defer stop()
	nc, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	if err != nil {
		t.Fatal(err)
	}
	tc := nc.(*net.TCPConn)
	tc.SetReadBuffer(64 << 10) // no receive-buffer autotuning: the server blocks soon
	tc.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(tc, "GET /static/big.bin HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	const read = 64 << 10
	if _, err := io.ReadFull(tc, make([]byte, read)); err != nil {
		t.Fatal(err)
	}
	tc.SetLinger(0) // close with RST: the server's next write fails
	tc.Close()

	re := regexp.MustCompile(`msg=request method=GET target=/static/big.bin status=200 bytes=(\d+) duration=\S+ remote=127.0.0.1:\d+ error="?([^\n"]+)`)
	m := waitLog(t, stderr, re)
	n, _ := strconv.Atoi(m[1])
	if n < read-200 || n >= size {
		t.Errorf("bytes=%d, want the bytes written before the reset: at least about %d, less than %d", n, read, size)
	}
	if !strings.Contains(m[2], "connection reset by peer") && !strings.Contains(m[2], "broken pipe") {
		t.Errorf("error=%q, want a reset or broken pipe", m[2])
	}
}

// TestServeLogRejected: requests the server answers before the site are
// logged too, with the method and target only when they parsed, quoted.
func TestServeLogRejected(t *testing.T) {
	url, stderr, stop := startServe(t, serveOptions{addr: "127.0.0.1:0", log: true})
	defer stop()
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	for _, raw := range []string{
		"GET /x HTTP/1.1\r\n\r\n",               // no Host: 400
		"BAD\x01 / HTTP/1.1\r\nHost: x\r\n\r\n", // bad method byte: 400, nothing parsed
		"GET /a\"b HTTP/2.0\r\nHost: x\r\n\r\n", // 505
		"GET /a%zz HTTP/1.1\r\nHost: x\r\n\r\n", // bad escape in the path: 400
	} {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		nc.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(nc, raw)
		io.ReadAll(nc)
		nc.Close()
	}
	for _, want := range []string{
		`msg=rejected method=GET target=/x status=400 error="wire: missing, repeated or invalid Host at byte 17" remote=127.0.0.1:`,
		`msg=rejected status=400 error="wire: invalid method at byte 3" remote=127.0.0.1:`,
		`msg=rejected method=GET target="/a\"b" status=505 error="wire: HTTP version not supported at byte 9" remote=127.0.0.1:`,
		`msg=rejected method=GET status=400 error="wire: invalid request-target at byte 6" remote=127.0.0.1:`,
	} {
		waitLog(t, stderr, regexp.MustCompile(regexp.QuoteMeta(want)))
	}
}

// TestServeAccessLogHead: a HEAD is logged with bytes=0, since no body
// goes out, not with the length of the body GET would get.
func TestServeAccessLogHead(t *testing.T) {
	url, stderr, stop := startServe(t, serveOptions{addr: "127.0.0.1:0", log: true})
	defer stop()
	nc, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(nc, "HEAD /plaintext HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	io.ReadAll(nc)
	m := waitLog(t, stderr, regexp.MustCompile(`msg=request method=HEAD target=/plaintext status=200 bytes=(\d+) `))
	if m[1] != "0" {
		t.Errorf("bytes=%s, want 0", m[1])
	}
}
