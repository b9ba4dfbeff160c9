//go:build !linux

package listen

import "net"

// config leaves keep-alive to net, per accepted connection: not every
// platform copies the listening socket's keep-alive values to the
// sockets it accepts.
func config() (net.ListenConfig, func(fd uintptr) error) { return net.ListenConfig{}, nil }
