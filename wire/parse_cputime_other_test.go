//go:build !linux

package wire

import (
	"testing"
	"time"
)

// cpuClock, where the thread CPU clock is not read, returns the wall time
// per op and reports no "cpu-ns/op".
func cpuClock(b *testing.B) (stop func() float64) {
	start := time.Now()
	return func() float64 { return float64(time.Since(start).Nanoseconds()) / float64(b.N) }
}
