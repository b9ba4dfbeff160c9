package conformance

import (
	"fmt"
	"strings"
	"sync"
)

// Run sends case c to the server at addr (host:port) on a fresh TCP
// connection, reads its answer as o says, and judges it.
func Run(c *Case, addr string, o Options) Result {
	return Judge(c, Exchange(c, addr, o))
}

// RunAll runs every case against addr, jobs at a time (at least one), and
// returns the results in case order.
func RunAll(cases []*Case, addr string, o Options, jobs int) []Result {
	results := make([]Result, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, jobs) {
		wg.Go(func() {
			for i := range next {
				results[i] = Run(cases[i], addr, o)
			}
		})
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// Counts tallies results by level, the way the probe reports them.
type Counts struct {
	Passed, Failed          int // MUST-level cases
	ShouldMet, ShouldMissed int // SHOULD-level cases
	Skipped                 int // cases left out by the caller
}

// Add counts one result.
func (n *Counts) Add(r *Result) {
	switch should := r.Case.IsShould(); {
	case r.Passed() && should:
		n.ShouldMet++
	case r.Passed():
		n.Passed++
	case should:
		n.ShouldMissed++
	default:
		n.Failed++
	}
}

// String renders the counts like the probe's last two lines, on one line.
func (n Counts) String() string {
	return fmt.Sprintf("MUST %d passed, %d failed; SHOULD %d met, %d missed; %d skipped",
		n.Passed, n.Failed, n.ShouldMet, n.ShouldMissed, n.Skipped)
}

// Line formats one verdict as the probe prints it: tag (ok, FAIL for MUST,
// WARN for SHOULD), id, level, expectation, what was seen and every broken
// expectation.
func Line(r *Result) string {
	tag := "ok  "
	switch {
	case !r.Passed() && r.Case.IsShould():
		tag = "WARN"
	case !r.Passed():
		tag = "FAIL"
	}
	level := "MUST"
	if r.Case.IsShould() {
		level = "SHOULD"
	}
	s := fmt.Sprintf("%s %s [%s] want %s | seen %s", tag, r.Case.ID, level, r.Case.Expect.String(), r.Seen)
	if len(r.Problems) > 0 {
		s += " | " + strings.Join(r.Problems, "; ")
	}
	return s
}
