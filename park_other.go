//go:build !linux

package brisk

// park never parks here: the connection waits in its goroutine.
func (c *conn) park() bool { return false }

// closeParked has nothing to close here.
func (s *Server) closeParked() {}
