package conformance

import (
	"flag"
	"regexp"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/echo"
	"github.com/brisk-http/brisk/internal/testserver"
)

var (
	runFilter = flag.String("conformance.run", "", "only run corpus cases whose id matches this regular expression")
	probeAddr = flag.String("conformance.addr", "", "run the corpus against this server (e.g. `brisk serve -echo`) instead of an in-process one")
)

// skip lists corpus cases believed wrong, by id, with the RFC reasoning.
// They still run and their result is logged, but a failure does not fail
// the test. Keep it empty unless a case contradicts RFC 9110/9112.
var skip = map[string]string{}

// TestCorpus runs every case of testdata/requests.jsonl against a brisk
// server with the echo handler on loopback, whole and split into small
// pieces. MUST-level cases must pass; SHOULD-level results are logged.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus takes ~30 s; skipped in -short mode")
	}
	cases, err := LoadCases("testdata/requests.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cases = selectCases(t, cases)
	addr := *probeAddr
	if addr == "" {
		addr = startEchoServer(t)
	}
	for _, split := range []bool{false, true} {
		name := map[bool]string{false: "whole", true: "split"}[split]
		t.Run(name, func(t *testing.T) {
			results := RunAll(cases, addr, DefaultOptions(split), 8)
			var n Counts
			for i := range results {
				r := &results[i]
				if why, ok := skip[r.Case.ID]; ok {
					n.Skipped++
					t.Logf("skipped %s (%s): %s", r.Case.ID, why, Line(r))
					continue
				}
				n.Add(r)
				switch {
				case r.Passed():
				case r.Case.IsShould():
					t.Log(Line(r))
				default:
					t.Error(Line(r))
				}
			}
			if total := n.Passed + n.Failed + n.ShouldMet + n.ShouldMissed + n.Skipped; total != len(cases) {
				t.Errorf("%d results counted for %d cases", total, len(cases))
			}
			t.Logf("%s: %s", name, n)
		})
	}
}

// selectCases applies -conformance.run.
func selectCases(t *testing.T, cases []*Case) []*Case {
	if *runFilter == "" {
		return cases
	}
	re, err := regexp.Compile(*runFilter)
	if err != nil {
		t.Fatalf("-conformance.run: %v", err)
	}
	var out []*Case
	for _, c := range cases {
		if re.MatchString(c.ID) {
			out = append(out, c)
		}
	}
	return out
}

// startEchoServer serves echo.Handle with default limits on a loopback port
// until the test ends, and returns its address.
func startEchoServer(t *testing.T) string {
	t.Helper()
	return testserver.Start(t, &brisk.Server{Handler: echo.Handle})
}
