package guardpage

import (
	"syscall"
	"testing"
)

// Size is the size of the page New returns, in bytes.
const Size = 4096

// New returns a readable and writable page of Size bytes whose neighbours
// on both sides are PROT_NONE, unmapped when the test ends. It skips the
// test when the system refuses the mapping.
func New(tb testing.TB) []byte {
	tb.Helper()
	mem, err := syscall.Mmap(-1, 0, 3*Size, syscall.PROT_NONE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		tb.Skip("mmap:", err)
	}
	tb.Cleanup(func() { syscall.Munmap(mem) })
	mid := mem[Size : 2*Size : 2*Size]
	if err := syscall.Mprotect(mid, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
		tb.Skip("mprotect:", err)
	}
	return mid
}
