//go:build linux

package wire

import (
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

// threadCPUNanos returns the CPU time of the calling OS thread
// (CLOCK_THREAD_CPUTIME_ID), which, unlike wall time, does not grow while
// the thread waits for a CPU on a loaded machine.
func threadCPUNanos() int64 {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

// cpuClock reports "cpu-ns/op" next to ns/op: start it before b.Loop and
// call the returned stop after it, which also returns the value.
func cpuClock(b *testing.B) (stop func() float64) {
	runtime.LockOSThread()
	start := threadCPUNanos()
	return func() float64 {
		ns := float64(threadCPUNanos()-start) / float64(b.N)
		b.ReportMetric(ns, "cpu-ns/op")
		runtime.UnlockOSThread()
		return ns
	}
}
