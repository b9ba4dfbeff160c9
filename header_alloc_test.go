//go:build !race

package brisk_test

import (
	"strconv"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestHeaderBytesAllocs: Header.SetBytes and AddBytes, called from
// another package as here, with a name and a value on the caller's stack,
// allocate nothing once the Header has room: they copy both, and the
// compiler sees that they do (see header.go: the methods are not inlined).
func TestHeaderBytesAllocs(t *testing.T) {
	var h brisk.Header
	set := func() {
		var b [20]byte
		v := strconv.AppendInt(b[:0], 1<<40, 10)
		h.Reset()
		h.SetBytes([]byte("Content-Length"), v)
		h.AddBytes([]byte("X-Size"), v)
	}
	set()
	if n := testing.AllocsPerRun(100, set); n != 0 {
		t.Fatalf("%v allocs per SetBytes and AddBytes, want 0", n)
	}
	if got := string(h.Get("X-Size")); got != "1099511627776" {
		t.Fatalf("X-Size %q", got)
	}
}
