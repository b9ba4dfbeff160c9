package brisk

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestBodyWrittenWithHead: a buffered response whose body does not fit
// the write buffer leaves with its head in one system call (writev on
// TCP), whole; counted by the process's write system calls
// (/proc/self/io syscw), where a head written apart adds one per response.
func TestBodyWrittenWithHead(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 1024) // 16 KiB: more than the 4 KiB write buffer
	ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) { c.Response.SetBody(body) }})
	c := ts.connect()
	c.roundTrip(get("/")) // the connection's first gathering write sets it up
	const n = 20
	before := writeSyscalls(t)
	for range n {
		c.sendSync(get("/"))
		if _, got := c.read("GET"); got != string(body) {
			t.Fatalf("body of %d bytes, want the %d sent", len(got), len(body))
		}
	}
	// n writes of the client's requests, n of the responses, some slack
	// for writes elsewhere in the process.
	if d := writeSyscalls(t) - before; d > 2*n+n/2 {
		t.Errorf("%d write system calls for %d requests, want about %d", d, n, 2*n)
	}
}

// writeSyscalls returns the process's write system calls so far.
func writeSyscalls(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skipf("no /proc/self/io: %v", err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "syscw: "); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no syscw in /proc/self/io")
	return 0
}
