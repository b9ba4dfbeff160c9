package cputime

import (
	"runtime"
	"testing"
)

func TestProcessAdvances(t *testing.T) {
	t0, ok := Process()
	if !ok {
		t.Skipf("no process CPU time on %s", runtime.GOOS)
	}
	x := 0
	for i := range 50_000_000 {
		x += i ^ (x >> 3)
	}
	if t1, _ := Process(); t1 <= t0 {
		t.Fatalf("CPU time %d after a busy loop, %d before (x=%d)", t1, t0, x)
	}
}
