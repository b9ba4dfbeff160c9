//go:build unix

package reuseport

import (
	"net"

	"golang.org/x/sys/unix"

	"github.com/brisk-http/brisk/internal/listen"
)

// open opens a TCP listener with SO_REUSEPORT set.
func open(network, addr string) (net.Listener, error) {
	return listen.TCP(network, addr, func(fd uintptr) error {
		return unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEPORT, 1)
	})
}
