//go:build unix

package reuseport

import (
	"context"
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// listen opens a TCP listener with SO_REUSEPORT set.
func listen(network, addr string) (net.Listener, error) {
	lc := net.ListenConfig{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) {
			serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEPORT, 1)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	return lc.Listen(context.Background(), network, addr)
}
