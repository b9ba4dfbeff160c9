package main

import (
	"strings"
	"testing"
)

// TestLoadRejectsZeroCounts: -c and -p below 1 are usage errors, not the
// library's defaults, and nothing is sent.
func TestLoadRejectsZeroCounts(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"c_zero", []string{"load", "-c", "0", "http://127.0.0.1:1/"}},
		{"c_negative", []string{"load", "-c", "-3", "http://127.0.0.1:1/"}},
		{"p_zero", []string{"load", "-p", "0", "http://127.0.0.1:1/"}},
		{"c_zero_after_url", []string{"load", "http://127.0.0.1:1/", "-c", "0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(tc.args...)
			if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "brisk load: -c and -p must be at least 1") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, \"\", one line about -c and -p", code, stdout, stderr, exitUsage)
			}
		})
	}
}
