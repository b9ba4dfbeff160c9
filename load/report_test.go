package load

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
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

// TestReportFailures: a run in which every request fails, against a
// server that answers garbage to one request and closes the connection
// on the next, reports the errors in the progress line, the first
// failure of each kind with its message, and no latency (the text has no
// latency table, the JSON no latency_us) since no response arrived.
func TestReportFailures(t *testing.T) {
	srv := startRaw(t, func(i int64) ([]byte, bool) {
		if i%2 == 0 {
			return []byte("garbage\r\n\r\n"), false
		}
		return nil, true
	})
	var progress strings.Builder
	res, err := Run(t.Context(), Config{URL: srv.url(), Connections: 2, Duration: 1200 * time.Millisecond}, &progress)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 0 || res.Errors[KindParse] == 0 || res.Errors[KindRead] == 0 {
		t.Fatalf("requests %d, parse errors %d, read errors %d; want 0, some, some", res.Requests, res.Errors[KindParse], res.Errors[KindRead])
	}

	// A line after the first second (another if the end is slow), erased
	// at the end.
	line := regexp.MustCompile(`^\r\033\[K +1s  0 responses  0 req/s  ([0-9]+) errors(\r\033\[K +2s  0 responses  0 req/s  [0-9]+ errors)?\r\033\[K$`).FindStringSubmatch(progress.String())
	if line == nil || line[1] == "0" {
		t.Errorf("progress %q, want one line with the errors so far", progress.String())
	}

	var text strings.Builder
	if err := res.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\nLatency: no response arrived\n",
		fmt.Sprintf("\n0 requests in %.2fs, %s read; %d failed with no response\n", res.Elapsed.Seconds(), formatBytes(float64(res.Bytes)), res.ErrorCount()),
		fmt.Sprintf("\nerrors: %d, connect 0, read %d, write 0, timeout 0, status 0, parse %d\n", res.ErrorCount(), res.Errors[KindRead], res.Errors[KindParse]),
		"\nfirst read error: the server closed the connection before the response was complete\n",
		"\nfirst parse error: wire: malformed status line at byte 0\n",
		"\nstatus: none\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	for _, unwanted := range []string{"│ Latency", "µs", "first connect error", "first status error"} {
		if strings.Contains(text.String(), unwanted) {
			t.Errorf("text report has %q:\n%s", unwanted, text.String())
		}
	}

	var js strings.Builder
	if err := res.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(js.String()), &rep); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"read": "the server closed the connection before the response was complete", "parse": "wire: malformed status line at byte 0"}
	if _, ok := rep["latency_us"]; ok || !reflect.DeepEqual(rep["first_errors"], want) {
		t.Errorf("JSON latency_us %v, first_errors %v; want none, %v", rep["latency_us"], rep["first_errors"], want)
	}
}

// TestReportFirstStatus: responses outside 2xx keep their latency table
// and name the first status code.
func TestReportFirstStatus(t *testing.T) {
	srv := startRaw(t, func(i int64) ([]byte, bool) {
		return []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n"), false
	})
	res, err := Run(t.Context(), Config{URL: srv.url(), Connections: 1, Requests: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := res.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"│ Latency", "\n5 requests in ", " read\nerrors: 5, ", "\nfirst status error: status 503\nstatus: 5xx 5\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
}
