package testserver

import (
	"strings"
	"sync"
)

// SyncBuffer collects text written by one goroutine (a logger, a child
// process's output) while the test reads it from another. The zero value
// is ready to use.
type SyncBuffer struct {
	mu sync.Mutex
	sb strings.Builder
}

// Write appends p; it never fails.
func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.Write(p)
}

// String returns everything written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.String()
}
