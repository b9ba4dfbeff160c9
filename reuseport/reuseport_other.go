//go:build !unix

package reuseport

import (
	"errors"
	"net"
)

// errUnsupported: the platform has no SO_REUSEPORT (Windows).
var errUnsupported = errors.New("reuseport: SO_REUSEPORT is not supported on this platform")

// open fails: the platform has no SO_REUSEPORT.
func open(network, addr string) (net.Listener, error) {
	return nil, errUnsupported
}
