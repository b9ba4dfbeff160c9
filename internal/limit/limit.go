// Package limit resolves the limits configured on brisk's Server and
// Client, and on the servers that share them (package h2), by one rule:
// zero means the default, a negative value means "none".
package limit

import "time"

// Count is v, or def when v is zero or negative: counts and sizes that
// cannot be turned off.
func Count(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// Bytes is v, def when v is zero, and -1 (no limit) when v is negative.
func Bytes(v, def int64) int64 {
	switch {
	case v == 0:
		return def
	case v < 0:
		return -1
	}
	return v
}

// Timeout is v, def when v is zero, and 0 (no timeout) when v is
// negative.
func Timeout(v, def time.Duration) time.Duration {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}
