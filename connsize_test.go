package brisk

import (
	"testing"
	"unsafe"
)

// TestConnSize bounds what every connection carries while idle, besides its
// goroutine stack: the conn with its Ctx. Buffers are pooled and given back
// while idle (TestIdleConnHoldsNoBuffers), the route storage (path
// parameters, Key values) and the client-close watcher are allocated on
// first use, so this struct is most of the heap an idle keep-alive
// connection costs. The budget is a size class of the Go allocator: one
// byte past 2,048 makes every conn take 2,304 bytes (past 2,304: 2,688),
// 9,000 times over in bench/idle (bench/results/idle.txt).
func TestConnSize(t *testing.T) {
	const limit = 2048
	if n := unsafe.Sizeof(conn{}); n > limit {
		t.Fatalf("conn is %d bytes, budget %d (an allocator size class)", n, limit)
	}
}
