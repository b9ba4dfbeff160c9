// Package cputime reads the CPU time a process has used, for benchmarks
// that report CPU per operation (cpu-ns/op) beside wall time.
package cputime

// Process returns the user and system CPU time the process has used, in
// ns, and false where the platform does not say (then 0).
func Process() (ns int64, ok bool) { return process() }
