package load

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// TestReportAvgWithinSamples: the text report's Avg lies between Min and
// Max, even when the overall rate (which counts the ramp-up and the end
// of the run) falls outside the samples' range.
func TestReportAvgWithinSamples(t *testing.T) {
	for _, tc := range []struct {
		name     string
		samples  []Sample
		requests int64
		elapsed  time.Duration
		wantAvg  string
	}{
		// -d 1s: one 24.2k sample, the run's tail drags the overall rate to 24.0k.
		{"one_second_tail", []Sample{{24200, 2420000}}, 24250, 1010 * time.Millisecond, "24.2k"},
		// A sample was lost at the end: the overall rate is above Max.
		{"overall_above_max", []Sample{{100, 1000}, {100, 1000}}, 1000, 2900 * time.Millisecond, "100"},
		{"ramp_up", []Sample{{15000, 150000}, {25000, 250000}, {26000, 260000}}, 80000, 3500 * time.Millisecond, "22.0k"},
		{"no_sample", nil, 500, 500 * time.Millisecond, "1000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var bytes int64
			for _, s := range tc.samples {
				bytes += s.Bytes
			}
			r := &Result{URL: "http://x/", Connections: 1, Pipeline: 1, Elapsed: tc.elapsed,
				Requests: tc.requests, Bytes: bytes, Samples: tc.samples, Latency: hdrhistogram.New(histMin, histMaxUS, histSigFigs)}
			var b strings.Builder
			if err := r.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			for _, stat := range []string{"Req/Sec", "Bytes/Sec"} {
				cells := tableRow(t, b.String(), stat) // Min, p50, Max, Avg
				if stat == "Req/Sec" && cells[3] != tc.wantAvg {
					t.Errorf("Req/Sec Avg = %q, want %q\n%s", cells[3], tc.wantAvg, b.String())
				}
				if len(tc.samples) == 0 {
					continue
				}
				lo, hi, avg := parseQuantity(t, cells[0]), parseQuantity(t, cells[2]), parseQuantity(t, cells[3])
				if !(lo <= avg && avg <= hi) {
					t.Errorf("%s: Min %s, Avg %s, Max %s: want Min ≤ Avg ≤ Max\n%s", stat, cells[0], cells[3], cells[2], b.String())
				}
			}
		})
	}
}

// tableRow returns the cells after the first of the table row starting
// with stat.
func tableRow(t *testing.T, text, stat string) []string {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		cells := strings.Split(strings.Trim(line, "│"), "│")
		if len(cells) == 5 && strings.TrimSpace(cells[0]) == stat {
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			return cells[1:]
		}
	}
	t.Fatalf("no %s row in\n%s", stat, text)
	return nil
}

// parseQuantity reads a number printed by formatCount or formatBytes.
func parseQuantity(t *testing.T, s string) float64 {
	t.Helper()
	mult := 1.0
	for _, u := range []struct {
		suffix string
		m      float64
	}{{" GB", 1e9}, {" MB", 1e6}, {" kB", 1e3}, {" B", 1}, {"M", 1e6}, {"k", 1e3}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.m
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("cannot parse %q: %v", s, err)
	}
	return v * mult
}
