package load

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Result is the outcome of one run.
type Result struct {
	URL         string
	Connections int
	Pipeline    int
	Rate        float64 // target requests/s; 0: closed loop

	// Elapsed is the wall-clock time from the first connection attempt to
	// the end of the last worker.
	Elapsed time.Duration

	// Requests counts responses received, whatever their status.
	Requests int64

	// Bytes counts bytes read from the connections (heads and bodies).
	Bytes int64

	// Errors counts failed requests by kind; index with an ErrorKind.
	// Responses outside 2xx are in both Requests and Errors[KindStatus].
	Errors [kindCount]int64

	// FirstErrors holds, for each kind, the first failure of the run, saying
	// what went wrong: the response's parse error (a wire error), the read
	// or write error, the status code ("status 503"), the timeout; nil when
	// Errors of that kind is zero. Index with an ErrorKind.
	FirstErrors [kindCount]error

	// ConnectErr is FirstErrors[KindConnect]: the first failed connect of
	// the run, a *ConnectError naming the cause; nil when
	// Errors[KindConnect] is zero.
	ConnectErr error

	// Status counts responses by status class: Status[2] is 2xx; Status[0]
	// stays zero (valid codes are 100..599, RFC 9110 §15).
	Status [6]int64

	// Latency holds one value per response, in µs: from the send time, or
	// in open loop (Rate > 0) from the intended send time, to the time the
	// response's last byte was read.
	Latency *hdrhistogram.Histogram

	// Samples are the responses and bytes of each whole second of the run,
	// counted from its start; the last partial second is in no sample.
	Samples []Sample
}

// Sample is the throughput of one second of the run.
type Sample struct {
	Requests int64 `json:"requests"` // responses received
	Bytes    int64 `json:"bytes"`    // bytes read
}

// RequestsPerSecond is Requests divided by Elapsed. Elapsed includes the
// connection ramp-up and the end of the run, so this may fall outside the
// range of the per-second Samples.
func (r *Result) RequestsPerSecond() float64 { return perSecond(r.Requests, r.Elapsed) }

// BytesPerSecond is Bytes divided by Elapsed.
func (r *Result) BytesPerSecond() float64 { return perSecond(r.Bytes, r.Elapsed) }

// ErrorCount is the number of failed requests of all kinds, non-2xx
// responses included.
func (r *Result) ErrorCount() int64 {
	var n int64
	for _, e := range r.Errors {
		n += e
	}
	return n
}

// Percentile returns the latency at quantile q, in 0..100, as a duration.
func (r *Result) Percentile(q float64) time.Duration {
	return time.Duration(r.Latency.ValueAtQuantile(q)) * time.Microsecond
}

func perSecond(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}
