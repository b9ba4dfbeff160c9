//go:build linux

package listen

import (
	"net"

	"golang.org/x/sys/unix"
)

// Keep-alive as net.Listen sets it on each accepted connection
// (net.KeepAliveConfig's defaults): idle and interval in seconds.
const (
	keepAliveIdle     = 15
	keepAliveInterval = 15
	keepAliveCount    = 9
)

// config returns the ListenConfig and the listening socket's options:
// it turns off the per-connection keep-alive calls (KeepAlive < 0)
// and sets keep-alive on the listening socket instead: Linux copies
// SO_KEEPALIVE and the TCP_KEEP* values to every socket it accepts
// (TestAcceptedKeepAlive).
func config() (net.ListenConfig, func(fd uintptr) error) {
	return net.ListenConfig{KeepAlive: -1}, setKeepAlive
}

// setKeepAlive sets keep-alive on the socket fd.
func setKeepAlive(fd uintptr) error {
	for _, o := range [...]struct{ level, name, value int }{
		{unix.SOL_SOCKET, unix.SO_KEEPALIVE, 1},
		{unix.IPPROTO_TCP, unix.TCP_KEEPIDLE, keepAliveIdle},
		{unix.IPPROTO_TCP, unix.TCP_KEEPINTVL, keepAliveInterval},
		{unix.IPPROTO_TCP, unix.TCP_KEEPCNT, keepAliveCount},
	} {
		if err := unix.SetsockoptInt(int(fd), o.level, o.name, o.value); err != nil {
			return err
		}
	}
	return nil
}
