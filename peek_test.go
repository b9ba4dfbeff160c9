package brisk

import (
	"net"
	"os"
	"runtime"
	"syscall"
	"testing"
)

// peekProbes reports whether peekSocket probes sockets here (the build
// constraint of peek_linux.go).
func peekProbes() bool { return runtime.GOOS == "linux" && runtime.GOARCH != "386" }

// TestPeekSocket checks each outcome of peekSocket on real file
// descriptors: a quiet TCP connection is peekEmpty; one with a byte
// waiting, or whose peer closed, is peekInput; a descriptor that is not a
// socket is peekUnknown (the client must then not discard the connection).
func TestPeekSocket(t *testing.T) {
	if !peekProbes() {
		t.Skip("no probe on this system")
	}
	peek := func(t *testing.T, rc syscall.RawConn) peekResult {
		t.Helper()
		var r peekResult
		var b [1]byte
		if err := rc.Control(func(fd uintptr) { r = peekSocket(fd, &b) }); err != nil {
			t.Fatal(err)
		}
		return r
	}
	c, s := tcpPair(t)
	rc, err := c.(*net.TCPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	if r := peek(t, rc); r != peekEmpty {
		t.Errorf("quiet connection: %v, want peekEmpty", r)
	}
	s.Write([]byte("x"))
	waitFor(t, func() bool { return peek(t, rc) == peekInput }) // a byte waiting
	c.Read(make([]byte, 1))
	s.Close()
	waitFor(t, func() bool { return peek(t, rc) == peekInput }) // peer closed

	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	prc, err := pr.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	if r := peek(t, prc); r != peekUnknown {
		t.Errorf("pipe (not a socket): %v, want peekUnknown", r)
	}
}
