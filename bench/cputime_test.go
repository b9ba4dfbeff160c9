package bench

import (
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

// Clocks for clock_gettime(2).
const (
	clockProcessCPUTime = 2 // CPU time of every thread of the process
	clockThreadCPUTime  = 3 // CPU time of the calling thread
)

// cpuNanos returns the CPU time of the given clock. Unlike wall time, it
// does not grow while the process waits for a CPU on a loaded machine.
func cpuNanos(clock uintptr) int64 {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clock, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

// threadCPUClock reports "cpu-ns/op", the CPU time of the benchmark's own
// thread per op, for a benchmark that does all its work in one goroutine:
// call it before the loop and the returned stop after it.
func threadCPUClock(b *testing.B) (stop func()) {
	runtime.LockOSThread()
	start := cpuNanos(clockThreadCPUTime)
	return func() {
		b.ReportMetric(float64(cpuNanos(clockThreadCPUTime)-start)/float64(b.N), "cpu-ns/op")
		runtime.UnlockOSThread()
	}
}

// processCPUClock reports "cpu-ns/op", the CPU time of the whole process
// per op (server goroutines, garbage collector and runtime included), for
// a benchmark whose work runs in other goroutines: call it after
// b.ResetTimer and the returned stop before tearing the server down.
func processCPUClock(b *testing.B) (stop func()) {
	start := cpuNanos(clockProcessCPUTime)
	return func() {
		b.ReportMetric(float64(cpuNanos(clockProcessCPUTime)-start)/float64(b.N), "cpu-ns/op")
	}
}
