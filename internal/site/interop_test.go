package site

import (
	"bytes"
	"testing"
)

// TestPprofIndex checks that /debug/pprof/ serves net/http/pprof's index.
func TestPprofIndex(t *testing.T) {
	addr := startSite(t, Config{})
	resp, body := rawGet(t, addr, "GET", "/debug/pprof/")
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte("Types of profiles available")) {
		t.Errorf("/debug/pprof/: %d %.100q", resp.StatusCode, body)
	}
	if resp, body := rawGet(t, addr, "GET", "/debug/pprof/heap?debug=1"); resp.StatusCode != 200 || !bytes.HasPrefix(body, []byte("heap profile:")) {
		t.Errorf("heap: %d %.100q", resp.StatusCode, body)
	}
}
