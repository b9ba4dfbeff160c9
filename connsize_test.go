package brisk

import (
	"testing"
	"unsafe"
)

// TestConnSize bounds what every connection carries while idle, besides its
// goroutine stack: the conn with its Ctx. Buffers are pooled and given back
// while idle (TestIdleConnHoldsNoBuffers), so this struct is most of the heap
// an idle keep-alive connection costs (the budget: half of
// fasthttp's ~16 KB). A scratch array added here costs its size 9,000
// times over in bench/idle.
func TestConnSize(t *testing.T) {
	const limit = 2560 // 2.5 KiB: the route state (352 bytes: path parameters, Key values) and the body filter are inline
	if n := unsafe.Sizeof(conn{}); n > limit {
		t.Fatalf("conn is %d bytes, budget %d", n, limit)
	}
}
