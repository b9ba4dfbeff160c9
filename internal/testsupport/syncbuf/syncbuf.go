// Package syncbuf is test support shared by the root package and the
// internal ones: a buffer one goroutine writes while another reads it. It
// imports nothing of brisk, so that package brisk's own tests can use it.
package syncbuf

import (
	"strings"
	"sync"
)

// Buffer collects text written by one goroutine (a logger, a child
// process's output) while the test reads it from another. The zero value
// is ready to use.
type Buffer struct {
	mu sync.Mutex
	sb strings.Builder
}

// Write appends p; it never fails.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.String()
}
