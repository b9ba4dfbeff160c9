//go:build !race

package echo

import (
	"strconv"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// TestAppendAllocs: Append into a buffer with room allocates nothing.
func TestAppendAllocs(t *testing.T) {
	r := newRequest("POST", "/a?b", [2]string{"Host", "h"}, [2]string{"X-A", " v "})
	body := []byte("hello")
	buf := Append(nil, r, body)
	if n := testing.AllocsPerRun(100, func() { buf = Append(buf[:0], r, body) }); n != 0 {
		t.Errorf("Append: %v allocs per run, want 0", n)
	}
}

// TestAppendRemoteAllocs: the remote member of a TCP client costs nothing.
func TestAppendRemoteAllocs(t *testing.T) {
	srv := &brisk.Server{Handler: func(x *brisk.Ctx) {
		var buf [64]byte
		n := testing.AllocsPerRun(100, func() { AppendRemote(buf[:0], x) })
		x.Response.WriteString(strconv.Itoa(int(n)) + " " + string(AppendRemote(buf[:0], x)))
	}}
	addr := testserver.Start(t, srv)
	resp, body := roundTrip(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", "GET")
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), "0 127.0.0.1:") {
		t.Fatalf("%d %q, want 0 allocs and 127.0.0.1:port", resp.StatusCode, body)
	}
}
