//go:build !race

package brisk

import "testing"

// Steady-state Reads and Writes, and moving a deadline, do not allocate.
func TestInmemoryAllocs(t *testing.T) {
	c, s := dialPair(t)
	msg := make([]byte, 100)
	buf := make([]byte, 200)
	c.Write(msg) // first write allocates the buffer
	s.Read(buf)
	n := testing.AllocsPerRun(200, func() {
		c.SetDeadline(aLongTimeAgo.Add(1 << 62))
		c.Write(msg)
		s.Read(buf)
	})
	if n != 0 {
		t.Errorf("%v allocations per write, read and SetDeadline; want 0", n)
	}
}
