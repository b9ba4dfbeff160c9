// Package stack captures a goroutine's call stack as a log/slog value:
// one attribute per frame, so that a log handler prints it as several
// attributes (text) or an object (JSON) instead of one line of escaped
// newlines.
package stack

import (
	"log/slog"
	"runtime"
	"strconv"
	"strings"
)

// MaxFrames bounds the frames captured; a deeper stack is truncated.
const MaxFrames = 64

// Trace is a captured stack, innermost frame first.
type Trace struct {
	pcs [MaxFrames]uintptr
	n   int
}

// Capture returns the stack of the calling goroutine, skipping skip
// frames above the caller of Capture (0: the caller is the first). In a
// deferred function that recovered a panic, the frames of the panicking
// function are on the stack, below runtime.gopanic.
func Capture(skip int) *Trace {
	t := new(Trace)
	t.n = runtime.Callers(skip+2, t.pcs[:])
	return t
}

// LogValue returns the stack as a group of attributes "0", "1", ...,
// each "function file:line", innermost first. Captured during a panic,
// it starts at the function that panicked: the recovering frames and
// those of package runtime above it are left out.
func (t *Trace) LogValue() slog.Value {
	var all []runtime.Frame
	frames := runtime.CallersFrames(t.pcs[:t.n])
	for {
		f, more := frames.Next()
		if f.Function == "runtime.gopanic" {
			all = all[:0] // the frames so far handle the panic
		} else if !strings.HasPrefix(f.Function, "runtime.") || len(all) > 0 {
			all = append(all, f)
		}
		if !more {
			break
		}
	}
	attrs := make([]slog.Attr, len(all))
	for i, f := range all {
		attrs[i] = slog.String(strconv.Itoa(i), f.Function+" "+f.File+":"+strconv.Itoa(f.Line))
	}
	return slog.GroupValue(attrs...)
}
