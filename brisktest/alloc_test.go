//go:build !race

package brisktest

import (
	"testing"
	"time"
)

// Steady-state Reads and Writes, and moving a deadline, do not allocate.
func TestPipeAllocs(t *testing.T) {
	c, s := dialPair(t)
	msg := make([]byte, 100)
	buf := make([]byte, 200)
	c.Write(msg) // first write allocates the buffer
	s.Read(buf)
	n := testing.AllocsPerRun(200, func() {
		c.SetDeadline(time.Unix(1, 0).Add(1 << 62))
		c.Write(msg)
		s.Read(buf)
	})
	if n != 0 {
		t.Errorf("%v allocations per write, read and SetDeadline; want 0", n)
	}
}
