package main

import (
	"os"
	"strings"
	"testing"
)

// TestLineCount: the echo server is at most 15 non-blank, non-comment
// lines (issue #33's target; net/http with gorilla/websocket takes 27).
// The same count in a shell:
//
//	grep -v '^\s*$' main.go | grep -v '^\s*//' | wc -l
func TestLineCount(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.Lines(string(src)) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "//") {
			n++
		}
	}
	if n > 15 {
		t.Errorf("main.go has %d lines of code, want at most 15", n)
	}
	t.Logf("%d lines of code", n)
}
