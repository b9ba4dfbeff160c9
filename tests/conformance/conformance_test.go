package conformance

import (
	"crypto/tls"
	"flag"
	"net"
	"regexp"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/echo"
	"github.com/brisk-http/brisk/internal/testsupport/certs"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
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
	addr := *probeAddr
	if addr == "" {
		addr = startEchoServer(t)
	}
	runCorpus(t, addr, nil)
}

// TestCorpusTLS runs the corpus unchanged over TLS: each case on its own
// TLS connection, each piece of a split case in its own TLS record.
func TestCorpusTLS(t *testing.T) {
	if testing.Short() || *probeAddr != "" {
		t.Skip("corpus over TLS takes ~10 s; skipped in -short mode and with -conformance.addr")
	}
	ca, err := certs.NewAuthority("conformance CA")
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Server("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	ln := tls.NewListener(testserver.Listen(t), &tls.Config{Certificates: []tls.Certificate{cert}})
	testserver.Serve(t, &brisk.Server{Handler: echo.Handle}, ln)
	cfg := &tls.Config{RootCAs: ca.Pool, ServerName: "127.0.0.1"}
	runCorpus(t, ln.Addr().String(), func(addr string) (net.Conn, error) {
		return tls.DialWithDialer(&net.Dialer{Timeout: 2 * time.Second}, "tcp", addr, cfg)
	})
}

// runCorpus runs the selected cases against addr, whole and split, on
// connections opened by dial (nil: TCP).
func runCorpus(t *testing.T, addr string, dial func(string) (net.Conn, error)) {
	cases, err := LoadCases("testdata/requests.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cases = selectCases(t, cases)
	for _, split := range []bool{false, true} {
		name := map[bool]string{false: "whole", true: "split"}[split]
		t.Run(name, func(t *testing.T) {
			o := DefaultOptions(split)
			o.Dial = dial
			results := RunAll(cases, addr, o, 8)
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
