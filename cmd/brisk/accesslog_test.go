package main

import (
	"bufio"
	"bytes"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
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
// of -root and resets the connection is logged, at level debug (a client
// error), with status 200, the bytes the server wrote (at least what the
// client read, far less than the file) and the write error.
func TestServeAccessLogCutShort(t *testing.T) {
	const size = 32 << 20
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	url, stderr, stop := startServe(t, serveOptions{addr: "127.0.0.1:0", root: dir, log: true,
		observe: observeOptions{level: slog.LevelDebug}})
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

	re := regexp.MustCompile(`level=DEBUG msg=request method=GET target=/static/big.bin proto=HTTP/1.1 status=200 bytes=(\d+) duration_us=\d+ client=127.0.0.1 remote=127.0.0.1:\d+ host=x error="?([^\n"]+)`)
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
		`msg=rejected method=GET target=/x status=400 error="wire: missing, repeated or invalid Host at byte 17" client=127.0.0.1 remote=127.0.0.1:`,
		`msg=rejected status=400 error="wire: invalid method at byte 3" client=127.0.0.1 remote=127.0.0.1:`,
		`msg=rejected method=GET target="/a\"b" status=505 error="wire: HTTP version not supported at byte 9" client=127.0.0.1 remote=127.0.0.1:`,
		`msg=rejected method=GET status=400 error="wire: invalid request-target at byte 6" client=127.0.0.1 remote=127.0.0.1:`,
	} {
		waitLog(t, stderr, regexp.MustCompile(regexp.QuoteMeta(want)))
	}
}

// TestServeAccessLogHead: a HEAD is logged with the bytes of its head,
// the whole response: no body goes out.
func TestServeAccessLogHead(t *testing.T) {
	url, stderr, stop := startServe(t, serveOptions{addr: "127.0.0.1:0", log: true})
	defer stop()
	resp := exchange(t, url, "HEAD", "HEAD /plaintext HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	want := `msg=request method=HEAD target=/plaintext proto=HTTP/1.1 status=200 bytes=` + strconv.Itoa(len(resp)) + ` duration_us=\d+ client=127.0.0.1 remote=127.0.0.1:\d+ host=x\n`
	waitLog(t, stderr, regexp.MustCompile(want))
}

// TestServeAccessLogBodyErrors: a request whose body fails is logged with
// the status the server sent after the handler, not the one the handler
// set, the exact bytes of that response and the error: 400 for bad chunk
// framing, 413 for a declared body above MaxBodyBytes (answered without
// the handler), 408 for a body slower than MinRequestBodyRate (after its
// grace period: about 5 s; a client error, logged at level debug).
func TestServeAccessLogBodyErrors(t *testing.T) {
	url, stderr, stop := startServe(t, serveOptions{addr: "127.0.0.1:0", log: true,
		observe: observeOptions{level: slog.LevelDebug}})
	defer stop()
	for _, tc := range []struct {
		name, req, status, err, level string
	}{
		{"bad_chunk", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "400",
			`"wire: invalid chunk size at byte 0"`, "INFO"},
		{"too_large", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n", "413",
			`"wire: body too large"`, "INFO"},
		{"too_slow", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nx", "408",
			`"brisk: request body slower than the minimum data rate"`, "DEBUG"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := exchange(t, url, "POST", tc.req)
			if !strings.HasPrefix(resp, "HTTP/1.1 "+tc.status+" ") {
				t.Fatalf("response %.40q, want status %s", resp, tc.status)
			}
			want := `level=` + tc.level + ` msg=request method=POST target=/echo proto=HTTP/1.1 status=` + tc.status + ` bytes=` + strconv.Itoa(len(resp)) +
				` duration_us=\d+ client=127.0.0.1 remote=127.0.0.1:\d+ host=x error=` + regexp.QuoteMeta(tc.err) + `\n`
			waitLog(t, stderr, regexp.MustCompile(want))
		})
	}
	if n := strings.Count(stderr.String(), "msg=rejected"); n != 0 {
		t.Errorf("%d rejected lines, want none (the 413 is logged once, as a request):\n%s", n, stderr.String())
	}
}

// exchange sends raw, a request with the given method, on a new
// connection to the server at url and returns the response, exactly the
// bytes it took on the wire (within 15 s).
func exchange(t *testing.T, url, method, raw string) string {
	t.Helper()
	nc, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(15 * time.Second))
	if _, err := io.WriteString(nc, raw); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	br := bufio.NewReader(io.TeeReader(nc, &got))
	resp, err := http.ReadResponse(br, &http.Request{Method: method})
	if err == nil {
		_, err = io.Copy(io.Discard, resp.Body)
	}
	if err != nil {
		t.Fatalf("reading the response: %v (read %q)", err, got.Bytes())
	}
	return got.String()[:got.Len()-br.Buffered()]
}
