// Package listen opens the TCP listeners of brisk's servers (Server's
// ListenAndServe and ListenAndServeTLS, package reuseport, brisk serve and
// brisk proxy).
//
// Their accepted connections have the TCP keep-alive that net.Listen
// gives them (probes after 15 s idle, every 15 s, 9 unanswered probes
// close the connection), set on the listening socket where the accepted
// sockets inherit it (Linux) rather than with four setsockopt calls per
// accepted connection, which cost about 5 µs per connection on a VM.
package listen

import (
	"context"
	"net"
	"syscall"
)

// TCP listens on the TCP address addr ("tcp", "tcp4" or "tcp6" network).
// control, when not nil, is called with the listening socket before it
// is bound (for options such as SO_REUSEPORT); its error fails TCP.
func TCP(network, addr string, control func(fd uintptr) error) (net.Listener, error) {
	lc, set := config()
	lc.Control = func(network, address string, rc syscall.RawConn) error {
		var err error
		if cerr := rc.Control(func(fd uintptr) {
			if set != nil {
				err = set(fd)
			}
			if err == nil && control != nil {
				err = control(fd)
			}
		}); cerr != nil {
			return cerr
		}
		return err
	}
	return lc.Listen(context.Background(), network, addr)
}
