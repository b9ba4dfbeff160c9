//go:build !unix

package cputime

func process() (int64, bool) { return 0, false }
