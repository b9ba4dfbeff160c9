package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

// TestBuffer writes from 4 goroutines while reading (run with -race):
// every write is kept whole.
func TestBuffer(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				b.Write([]byte("line\n"))
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if got := b.String(); got != strings.Repeat("line\n", 400) {
		t.Fatalf("got %d bytes, want 400 lines", len(got))
	}
}
