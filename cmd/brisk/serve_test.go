package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/peer"
	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
)

// startServe runs serve with o in the background. It returns the base URL
// printed on stdout, stderr, and a stop function that cancels the context
// and returns the exit status.
func startServe(t *testing.T, o serveOptions) (url string, stderr *syncbuf.Buffer, stop func() int) {
	t.Helper()
	pr, pw := io.Pipe()
	stderr = new(syncbuf.Buffer)
	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	go func() {
		exit <- serve(ctx, o, pw, stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("no URL printed: %v; stderr %q", err, stderr.String())
	}
	go io.Copy(io.Discard, pr)
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "brisk: serving ")
	if !ok {
		t.Fatalf("first line %q", line)
	}
	stop = func() int {
		cancel()
		select {
		case code := <-exit:
			return code
		case <-time.After(15 * time.Second):
			t.Fatal("serve did not return after cancel")
			return -1
		}
	}
	return url, stderr, stop
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, b := peer.Get(t, url)
	return resp.StatusCode, string(b)
}

func TestServeLifecycle(t *testing.T) {
	url, stderr, stop := startServe(t, serveOptions{addr: "127.0.0.1:0"})
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") {
		t.Errorf("URL %q", url)
	}
	if code, body := get(t, url+"plaintext"); code != 200 || body != "Hello, World!" {
		t.Errorf("GET /plaintext: %d %q", code, body)
	}
	if code := stop(); code != 0 {
		t.Errorf("exit %d after shutdown, want 0; stderr %q", code, stderr.String())
	}
	if got := stderr.String(); got != "brisk: shutting down\n" {
		t.Errorf("stderr %q, want only the shutdown line", got)
	}
	if _, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")); err == nil {
		t.Error("still listening after shutdown")
	}
}

func TestServeEcho(t *testing.T) {
	url, _, stop := startServe(t, serveOptions{addr: "127.0.0.1:0", echo: true})
	defer stop()
	if code, body := get(t, url+"plaintext"); code != 200 || !strings.HasPrefix(body, `{"headers":[`) {
		t.Errorf("GET /plaintext with -echo: %d %.60q, want an echo document", code, body)
	}
}

// TestServeAccessLog: -log writes one line per request, with the bytes
// of the whole response as it went out. The lines of two connections may
// come in either order (the client sees a response before its line).
func TestServeAccessLog(t *testing.T) {
	url, stderr, stop := startServe(t, serveOptions{addr: "127.0.0.1:0", log: true})
	ok := exchange(t, url, "GET", "GET /plaintext?a=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	missing := exchange(t, url, "GET", "GET /missing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	stop()
	log := stderr.String()
	for _, want := range []string{
		`msg=request method=GET target="/plaintext?a=1" proto=HTTP/1.1 status=200 bytes=` + strconv.Itoa(len(ok)),
		`msg=request method=GET target=/missing proto=HTTP/1.1 status=404 bytes=` + strconv.Itoa(len(missing)),
	} {
		if !regexp.MustCompile(regexp.QuoteMeta(want) + ` duration_us=\d+ client=127\.0\.0\.1 remote=127\.0\.0\.1:\d+ host=x\n`).MatchString(log) {
			t.Errorf("no log line matching %s in:\n%s", want, log)
		}
	}
	if n := strings.Count(log, "\n"); n != 3 {
		t.Errorf("stderr has %d lines, want 2 log lines and the shutdown line:\n%s", n, log)
	}
}

// TestServeAddrInUse: the listen error is one line and the exit status 1.
func TestServeAddrInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	code, stdout, stderr := runArgs("serve", "-addr", addr)
	want := fmt.Sprintf("brisk: listen tcp %s: bind: address already in use\n", addr)
	if code != 1 || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1, \"\", %q", code, stdout, stderr, want)
	}
}

func TestBaseURL(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"127.0.0.1:8080", "http://127.0.0.1:8080/"},
		{"0.0.0.0:80", "http://localhost:80/"},
		{"[::]:8080", "http://localhost:8080/"},
		{"[::1]:9", "http://[::1]:9/"},
	}
	for _, tt := range tests {
		addr, err := net.ResolveTCPAddr("tcp", tt.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := baseURL(addr); got != tt.want {
			t.Errorf("baseURL(%s) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}
