//go:build !race

package echo

import "testing"

// TestAppendAllocs: Append into a buffer with room allocates nothing.
func TestAppendAllocs(t *testing.T) {
	r := newRequest("POST", "/a?b", [2]string{"Host", "h"}, [2]string{"X-A", " v "})
	body := []byte("hello")
	buf := Append(nil, r, body)
	if n := testing.AllocsPerRun(100, func() { buf = Append(buf[:0], r, body) }); n != 0 {
		t.Errorf("Append: %v allocs per run, want 0", n)
	}
}
