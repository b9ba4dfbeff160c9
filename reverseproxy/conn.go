package reverseproxy

import (
	"errors"
	"net"
	"syscall"
	"time"
)

// upstreamConn is a connection to an upstream that ends a read waiting
// longer than idle for a byte (IdleTimeout), within the deadline its
// HostClient sets. It exposes the socket (syscall.Conn) so that the
// client keeps its fast paths.
type upstreamConn struct {
	net.Conn
	idle     time.Duration // 0: none
	deadline time.Time     // the read deadline the client set (zero: none)
	armed    time.Time     // the read deadline set on Conn
}

// idleSlack is how far an idle deadline may lag behind at most (and an
// eighth of the idle time when that is less): it is moved only when it
// would move by more, so that back-to-back reads do not reset it.
const idleSlack = 100 * time.Millisecond

func (c *upstreamConn) Read(p []byte) (int, error) {
	if c.idle > 0 {
		t := time.Now().Add(c.idle)
		if !c.deadline.IsZero() && c.deadline.Before(t) {
			t = c.deadline
		}
		if t.Sub(c.armed) > min(c.idle/8, idleSlack) || t.Before(c.armed) {
			if err := c.Conn.SetReadDeadline(t); err != nil {
				return 0, err
			}
			c.armed = t
		}
	}
	return c.Conn.Read(p)
}

func (c *upstreamConn) SetDeadline(t time.Time) error {
	c.deadline, c.armed = t, t
	return c.Conn.SetDeadline(t)
}

func (c *upstreamConn) SetReadDeadline(t time.Time) error {
	c.deadline, c.armed = t, t
	return c.Conn.SetReadDeadline(t)
}

var errNoSyscallConn = errors.New("reverseproxy: not a socket")

// SyscallConn returns the socket's raw connection, when it is one.
func (c *upstreamConn) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := c.Conn.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, errNoSyscallConn
}

// CloseWrite half-closes the connection when it supports it (TCP), else
// closes it.
func (c *upstreamConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Conn.Close()
}
