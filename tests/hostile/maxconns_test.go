package hostile

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestMaxConns holds MaxConns (10) kept-alive connections busy, then opens
// 40 more at once: each must be answered 503 and closed, or be refused
// (closed without a byte), within 2 s, while the 10 stay usable. Once they
// close, a new connection is served again.
func TestMaxConns(t *testing.T) {
	checkLeaks(t)
	const limit, extra = 10, 40
	addr, _ := startServer(t, &brisk.Server{MaxConns: limit})
	req := []byte("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")

	held := make([]net.Conn, limit)
	readers := make([]*bufio.Reader, limit)
	for i := range held {
		held[i] = dial(t, addr)
		defer held[i].Close()
		readers[i] = bufio.NewReader(held[i])
		mustGet(t, held[i], readers[i], req)
	}

	results := make(chan string, extra)
	for range extra {
		go func() { results <- overLimit(addr, req) }()
	}
	counts := map[string]int{}
	for range extra {
		r := <-results
		counts[r]++
	}
	t.Logf("%d connections over MaxConns=%d: %v", extra, limit, counts)
	for r, n := range counts {
		if r != "503+close" && r != "refused" {
			t.Errorf("%d connections over the limit: %s, want 503+close or refused", n, r)
		}
	}
	for i := range held { // the held connections still work
		mustGet(t, held[i], readers[i], req)
	}
	for _, c := range held {
		c.Close()
	}
	// Slots free up once the server sees the closes.
	deadline := time.Now().Add(3 * time.Second)
	for {
		r := overLimit(addr, req)
		if r == "200" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the held connections closed, a new one still gets %s", r)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// mustGet sends req on c and requires a 200.
func mustGet(t *testing.T, c net.Conn, br *bufio.Reader, req []byte) {
	t.Helper()
	c.SetDeadline(time.Now().Add(3 * time.Second))
	if _, err := c.Write(req); err != nil {
		t.Fatal(err)
	}
	resp, _, err := readResponse(br, "GET")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("held connection: %v %v", resp, err)
	}
}

// overLimit opens a connection, sends req and classifies the outcome:
// "200", "503+close", "refused" (closed or reset without a byte), or a
// description of anything else.
func overLimit(addr string, req []byte) string {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return "refused"
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	c.Write(req) // may fail if the server already closed
	br := bufio.NewReader(c)
	if _, err := br.Peek(1); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return "no answer within 2 s"
		}
		return "refused"
	}
	resp, _, err := readResponse(br, "GET")
	switch {
	case err != nil:
		return "unreadable response: " + err.Error()
	case resp.StatusCode == 200:
		return "200"
	case resp.StatusCode != 503:
		return "status " + resp.Status
	}
	if _, err := br.ReadByte(); err == nil || !(err == io.EOF || strings.Contains(err.Error(), "reset")) {
		return "503 but the connection stayed open"
	}
	return "503+close"
}
