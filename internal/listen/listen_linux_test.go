//go:build linux

package listen

import (
	"net"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// keepAlive reads c's keep-alive options: SO_KEEPALIVE, TCP_KEEPIDLE,
// TCP_KEEPINTVL, TCP_KEEPCNT.
func keepAlive(t *testing.T, c net.Conn) [4]int {
	t.Helper()
	rc, err := c.(syscall.Conn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var v [4]int
	var gerr error
	rc.Control(func(fd uintptr) {
		for i, o := range [...][2]int{
			{unix.SOL_SOCKET, unix.SO_KEEPALIVE},
			{unix.IPPROTO_TCP, unix.TCP_KEEPIDLE},
			{unix.IPPROTO_TCP, unix.TCP_KEEPINTVL},
			{unix.IPPROTO_TCP, unix.TCP_KEEPCNT},
		} {
			if v[i], gerr = unix.GetsockoptInt(int(fd), o[0], o[1]); gerr != nil {
				return
			}
		}
	})
	if gerr != nil {
		t.Fatal(gerr)
	}
	return v
}

// accepted returns a connection accepted by ln.
func accepted(t *testing.T, ln net.Listener) net.Conn {
	t.Helper()
	d, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestAcceptedKeepAlive: a connection accepted by TCP's listener has the
// keep-alive of one accepted by net.Listen's, set without a call per
// connection.
func TestAcceptedKeepAlive(t *testing.T) {
	ref, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	want := keepAlive(t, accepted(t, ref))
	if want[0] == 0 {
		t.Fatalf("net.Listen's connection has no keep-alive: %v", want)
	}

	ln, err := TCP("tcp", "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if got := keepAlive(t, accepted(t, ln)); got != want {
		t.Errorf("keep-alive (on, idle, interval, count) = %v, net.Listen's %v", got, want)
	}
	if got := ln.(*net.TCPListener); got == nil {
		t.Fatal("not a TCP listener")
	}
}

// TestControl: TCP calls control with the listening socket, and fails with
// its error.
func TestControl(t *testing.T) {
	var seen bool
	ln, err := TCP("tcp", "127.0.0.1:0", func(fd uintptr) error {
		v, err := unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_KEEPALIVE)
		seen = err == nil && v == 1
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if !seen {
		t.Error("control did not see the listening socket with keep-alive set")
	}
	if _, err := TCP("tcp", "127.0.0.1:0", func(uintptr) error { return unix.EPERM }); err == nil {
		t.Error("control's error: TCP succeeded")
	}
}
