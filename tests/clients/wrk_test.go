package clients

import (
	"regexp"
	"strconv"
	"testing"
	"time"
)

// wrkTotal matches wrk's "N requests in Xs, Y read" line.
var wrkTotal = regexp.MustCompile(`(\d+) requests in [\d.]+\w+, `)

// TestWrk runs wrk for one second against /hello, without and with 16
// pipelined requests per write, and requires requests served, no socket
// errors, no timeouts and no response other than 200.
func TestWrk(t *testing.T) {
	wrk := need(t, "wrk")
	if testing.Short() {
		t.Skip("wrk runs take a few seconds; skipped in -short mode")
	}
	s := startServer(t)
	tests := []struct {
		name  string
		extra []string
	}{
		{"plain", nil},
		{"pipelined16", []string{"--", "16"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"-t1", "-c8", "-d1s", "--timeout", "2s", "-s", "testdata/pipeline.lua", s.url + "/hello"}, tt.extra...)
			out, _ := runCmd(t, 20*time.Second, wrk, args...)
			text := string(out)
			m := wrkTotal.FindStringSubmatch(text)
			if m == nil {
				t.Fatalf("no request count in wrk output:\n%s", text)
			}
			n, _ := strconv.Atoi(m[1])
			if n == 0 {
				t.Errorf("wrk completed no requests:\n%s", text)
			}
			for _, bad := range []string{"Socket errors", "Non-2xx or 3xx"} {
				if regexp.MustCompile(bad).MatchString(text) {
					t.Errorf("wrk reports %q:\n%s", bad, text)
				}
			}
			if !regexp.MustCompile(`(?m)^non200 0$`).MatchString(text) {
				t.Errorf("script counted responses other than 200:\n%s", text)
			}
			t.Logf("%s: %d requests in 1s", tt.name, n)
		})
	}
}
