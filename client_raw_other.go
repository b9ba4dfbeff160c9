//go:build !unix

package brisk

import "net"

// initRaw leaves rawIO off where file descriptors are not Unix ones: the
// connection uses Write then Read.
func (cc *clientConn) initRaw(nc net.Conn) {}
