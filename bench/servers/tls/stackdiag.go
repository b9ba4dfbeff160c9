//go:build stackdiag

// With -tags stackdiag the server prints to stderr, every 0.5 s, the
// runtime's starting stack size for new goroutines
// (/gc/stack/starting-size:bytes), the stack in use (MemStats.StackInuse,
// KiB) and the goroutine count: how x/net/http2's goroutine per handler
// and per flushing write are sized (see connStack in package h2).
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"time"
)

func init() {
	go func() {
		s := []metrics.Sample{{Name: "/gc/stack/starting-size:bytes"}}
		for range time.Tick(500 * time.Millisecond) {
			metrics.Read(s)
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			fmt.Fprintln(os.Stderr, "start", s[0].Value.Uint64(), "stackinuse_k", m.StackInuse>>10, "goroutines", runtime.NumGoroutine())
		}
	}()
}
