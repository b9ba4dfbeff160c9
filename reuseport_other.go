//go:build !unix

package brisk

import (
	"errors"
	"net"
)

func listenReusePort(network, addr string) (net.Listener, error) {
	return nil, errors.New("brisk: SO_REUSEPORT is not supported on this platform")
}
