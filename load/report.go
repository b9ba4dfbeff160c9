package load

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// WriteText writes the human-readable report: a latency table with
// percentile columns (none when no response arrived: there is no latency
// to show), a throughput table over the per-second samples, totals,
// errors by kind with the first failure of each kind that occurred, and
// responses by status class. The throughput table's Min, p50, Max and Avg
// are those of the samples (whole seconds only), so Min ≤ Avg ≤ Max; a
// run shorter than a second has no sample, and its Avg is the overall
// rate (RequestsPerSecond, BytesPerSecond).
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	mode := "closed loop"
	if r.Rate > 0 {
		mode = fmt.Sprintf("rate %g req/s, latency from intended send time", r.Rate)
	}
	fmt.Fprintf(&b, "brisk load %s\n%d connections, pipelining %d, %s\n\n", r.URL, r.Connections, r.Pipeline, mode)

	if h := r.Latency; h.TotalCount() > 0 {
		us := func(v int64) string { return formatLatency(time.Duration(v) * time.Microsecond) }
		writeTable(&b, [][]string{
			{"Stat", "p50", "p90", "p99", "p99.9", "Avg", "Stdev", "Max"},
			{"Latency", us(h.ValueAtQuantile(50)), us(h.ValueAtQuantile(90)), us(h.ValueAtQuantile(99)),
				us(h.ValueAtQuantile(99.9)), us(int64(h.Mean())), us(int64(h.StdDev())), us(h.Max())},
		})
	} else {
		b.WriteString("Latency: no response arrived\n")
	}
	b.WriteByte('\n')
	reqs, bytes := r.sampleStats()
	writeTable(&b, [][]string{
		{"Stat", "Min", "p50", "Max", "Avg"},
		append([]string{"Req/Sec"}, reqs[:]...),
		append([]string{"Bytes/Sec"}, bytes[:]...),
	})
	fmt.Fprintf(&b, "\n%s requests in %.2fs, %s read", formatCount(float64(r.Requests)), r.Elapsed.Seconds(), formatBytes(float64(r.Bytes)))
	if n := r.ErrorCount() - r.Errors[KindStatus]; n > 0 {
		fmt.Fprintf(&b, "; %d failed with no response", n)
	}
	fmt.Fprintf(&b, "\nerrors: %d", r.ErrorCount())
	for k := range kindCount {
		fmt.Fprintf(&b, ", %s %d", k, r.Errors[k])
	}
	for k, err := range r.FirstErrors {
		if err != nil {
			fmt.Fprintf(&b, "\nfirst %s error: %v", ErrorKind(k), err)
		}
	}
	b.WriteString("\nstatus:")
	for class, n := range r.Status {
		if n > 0 {
			fmt.Fprintf(&b, " %s %d", statusClass(class), n)
		}
	}
	if r.Requests == 0 {
		b.WriteString(" none")
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// sampleStats returns min, median, max and mean of the per-second
// samples, formatted, for requests and bytes. A run that lasted under a
// second has no sample: "-" for the first three, the overall rate for the
// mean.
func (r *Result) sampleStats() (reqs, bytes [4]string) {
	if len(r.Samples) == 0 {
		return [4]string{"-", "-", "-", formatCount(r.RequestsPerSecond())},
			[4]string{"-", "-", "-", formatBytes(r.BytesPerSecond())}
	}
	rs := make([]int64, len(r.Samples))
	bs := make([]int64, len(r.Samples))
	var rsum, bsum float64
	for i, s := range r.Samples {
		rs[i], bs[i] = s.Requests, s.Bytes
		rsum += float64(s.Requests)
		bsum += float64(s.Bytes)
	}
	slices.Sort(rs)
	slices.Sort(bs)
	m := len(rs) / 2
	for i, j := range [3]int{0, m, len(rs) - 1} {
		reqs[i] = formatCount(float64(rs[j]))
		bytes[i] = formatBytes(float64(bs[j]))
	}
	n := float64(len(r.Samples))
	reqs[3], bytes[3] = formatCount(rsum/n), formatBytes(bsum/n)
	return reqs, bytes
}

// writeTable draws rows as a box-drawn table; the first row is the header.
func writeTable(b *strings.Builder, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], len(cell))
		}
	}
	rule := func(left, mid, right string) {
		b.WriteString(left)
		for i, wd := range widths {
			if i > 0 {
				b.WriteString(mid)
			}
			b.WriteString(strings.Repeat("─", wd+2))
		}
		b.WriteString(right + "\n")
	}
	rule("┌", "┬", "┐")
	for n, row := range rows {
		for i, cell := range row {
			fmt.Fprintf(b, "│ %-*s ", widths[i], cell)
		}
		b.WriteString("│\n")
		if n == 0 {
			rule("├", "┼", "┤")
		}
	}
	rule("└", "┴", "┘")
}

// formatLatency prints d with three significant digits in µs, ms or s.
func formatLatency(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return strconv.FormatInt(d.Microseconds(), 10) + " µs"
	case d < time.Second:
		return strconv.FormatFloat(float64(d)/1e6, 'f', 2, 64) + " ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + " s"
}

// formatCount prints n with a k or M suffix above 10 000.
func formatCount(n float64) string {
	switch {
	case n >= 10e6:
		return strconv.FormatFloat(n/1e6, 'f', 2, 64) + "M"
	case n >= 10e3:
		return strconv.FormatFloat(n/1e3, 'f', 1, 64) + "k"
	}
	return strconv.FormatFloat(n, 'f', 0, 64)
}

// formatBytes prints n in B, kB, MB or GB (powers of 1000).
func formatBytes(n float64) string {
	units := []string{"B", "kB", "MB", "GB"}
	i := 0
	for n >= 1000 && i < len(units)-1 {
		n /= 1000
		i++
	}
	if i == 0 {
		return strconv.FormatFloat(n, 'f', 0, 64) + " B"
	}
	return strconv.FormatFloat(n, 'f', 2, 64) + " " + units[i]
}

func statusClass(class int) string {
	if class == 0 {
		return "other"
	}
	return strconv.Itoa(class) + "xx"
}

// Report is the JSON form of a Result, written by WriteJSON. Latencies
// are in µs, durations in seconds. A run in which no response arrived has
// no latency_us (its zeros would read as measurements).
type Report struct {
	URL               string            `json:"url"`
	Connections       int               `json:"connections"`
	Pipeline          int               `json:"pipeline"`
	Rate              float64           `json:"rate"`
	Seconds           float64           `json:"seconds"`
	Requests          int64             `json:"requests"`
	Bytes             int64             `json:"bytes"`
	RequestsPerSecond float64           `json:"requests_per_second"`
	BytesPerSecond    float64           `json:"bytes_per_second"`
	LatencyUS         LatencyReport     `json:"latency_us,omitzero"` // absent when no response arrived
	Errors            map[string]int64  `json:"errors"`
	FirstErrors       map[string]string `json:"first_errors,omitempty"`  // Result.FirstErrors, by kind
	ConnectError      string            `json:"connect_error,omitempty"` // Result.ConnectErr
	Status            map[string]int64  `json:"status"`
	Samples           []Sample          `json:"samples"`
}

// LatencyReport summarises the latency histogram, in µs.
type LatencyReport struct {
	Min   int64   `json:"min"`
	P50   int64   `json:"p50"`
	P90   int64   `json:"p90"`
	P99   int64   `json:"p99"`
	P999  int64   `json:"p99_9"`
	Max   int64   `json:"max"`
	Mean  float64 `json:"mean"`
	Stdev float64 `json:"stdev"`
}

// Report returns the JSON form of r.
func (r *Result) Report() Report {
	h := r.Latency
	rep := Report{
		URL: r.URL, Connections: r.Connections, Pipeline: r.Pipeline, Rate: r.Rate,
		Seconds: r.Elapsed.Seconds(), Requests: r.Requests, Bytes: r.Bytes,
		RequestsPerSecond: r.RequestsPerSecond(), BytesPerSecond: r.BytesPerSecond(),
		LatencyUS: LatencyReport{
			Min: h.Min(), P50: h.ValueAtQuantile(50), P90: h.ValueAtQuantile(90),
			P99: h.ValueAtQuantile(99), P999: h.ValueAtQuantile(99.9), Max: h.Max(),
			Mean: h.Mean(), Stdev: h.StdDev(),
		},
		Errors:  make(map[string]int64, kindCount),
		Status:  make(map[string]int64, len(r.Status)),
		Samples: r.Samples,
	}
	for k := range kindCount {
		rep.Errors[k.String()] = r.Errors[k]
		if err := r.FirstErrors[k]; err != nil {
			if rep.FirstErrors == nil {
				rep.FirstErrors = make(map[string]string)
			}
			rep.FirstErrors[k.String()] = err.Error()
		}
	}
	if r.ConnectErr != nil {
		rep.ConnectError = r.ConnectErr.Error()
	}
	for class, n := range r.Status {
		rep.Status[statusClass(class)] = n
	}
	if rep.Samples == nil {
		rep.Samples = []Sample{}
	}
	return rep
}

// WriteJSON writes r.Report() as one indented JSON object.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.Report())
}
