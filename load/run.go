package load

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram range and precision: 1 µs to at least one minute, 3
// significant digits. Longer latencies are recorded as the highest value.
const (
	histMin     = 1
	histMaxUS   = int64(time.Minute / time.Microsecond)
	histSigFigs = 3
)

// runState is shared by the workers of one run.
type runState struct {
	start   time.Time
	ctx     context.Context // cancelled by halt
	cancel  context.CancelFunc
	stop    atomic.Bool
	once    sync.Once
	workers []*worker
}

// now returns the time since the run started, in ns (monotonic clock).
func (r *runState) now() int64 { return int64(time.Since(r.start)) }

// at converts a time in ns since the start to a time.Time.
func (r *runState) at(ns int64) time.Time { return r.start.Add(time.Duration(ns)) }

// halt stops every worker: requests in flight are abandoned uncounted.
func (r *runState) halt() {
	r.once.Do(func() {
		r.stop.Store(true)
		r.cancel()
		for _, w := range r.workers {
			w.abort()
		}
	})
}

// Run performs the load described by c and returns its result. It first
// opens and closes one connection to the URL's host: when that fails it
// returns a *ConnectError at once and runs nothing. Its other errors are
// for an invalid Config; failures while running are counted in
// Result.Errors. Cancelling ctx ends the run early, with
// the result so far. If progress is not nil, a live line (elapsed time,
// responses, current rate, failed requests) is rewritten on it every
// second, starting with "\r", and erased at the end.
func Run(ctx context.Context, c Config, progress io.Writer) (*Result, error) {
	p, err := newPlan(c)
	if err != nil {
		return nil, err
	}
	if err := probe(ctx, p); err != nil {
		return nil, err
	}
	maxUS := max(histMaxUS, 2*p.timeout/int64(time.Microsecond))
	run := &runState{}
	run.ctx, run.cancel = context.WithCancel(ctx)
	defer run.cancel()
	for i := range p.connections {
		budget := int64(-1)
		if p.requests > 0 {
			budget = p.requests / int64(p.connections)
			if int64(i) < p.requests%int64(p.connections) {
				budget++
			}
			if budget == 0 {
				break
			}
		}
		h := hdrhistogram.New(histMin, maxUS, histSigFigs)
		run.workers = append(run.workers, newWorker(p, run, i, budget, h))
	}

	var wg sync.WaitGroup
	run.start = time.Now()
	for _, w := range run.workers {
		wg.Go(w.loop)
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	samples := watch(run, p.duration, finished, progress)
	elapsed := time.Since(run.start)
	return collect(c, p, run.workers, elapsed, samples), nil
}

// watch waits for the workers to finish, for the duration to pass or for
// the context to be cancelled, halting the workers in the last two cases.
// Meanwhile it samples throughput every second and writes the progress line.
func watch(run *runState, d time.Duration, finished <-chan struct{}, progress io.Writer) []Sample {
	var end <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		end = t.C
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var samples []Sample
	var last totals
	cancelled := run.ctx.Done()
	for {
		select {
		case <-finished:
			eraseProgress(progress)
			return samples
		case <-end:
			run.halt()
			end = nil
		case <-cancelled:
			run.halt()
			cancelled = nil
		case <-tick.C:
			cur := sum(run.workers)
			samples = append(samples, Sample{Requests: cur.Requests - last.Requests, Bytes: cur.Bytes - last.Bytes})
			last = cur
			writeProgress(progress, time.Since(run.start), cur, samples[len(samples)-1].Requests)
		}
	}
}

// totals are the workers' live counters added up.
type totals struct {
	Sample
	errors int64 // failed requests, any kind
}

// sum adds up the workers' live counters.
func sum(ws []*worker) totals {
	var s totals
	for _, w := range ws {
		s.Requests += w.live.requests.Load()
		s.Bytes += w.live.bytes.Load()
		s.errors += w.live.errors.Load()
	}
	return s
}

// writeProgress writes the live line: elapsed time, responses so far, the
// last second's rate and the failed requests so far (responses outside
// 2xx included, as in Result.ErrorCount).
func writeProgress(w io.Writer, elapsed time.Duration, cur totals, rate int64) {
	if w != nil {
		fmt.Fprintf(w, "\r\033[K%6s  %d responses  %d req/s  %d errors", elapsed.Round(time.Second), cur.Requests, rate, cur.errors)
	}
}

func eraseProgress(w io.Writer) {
	if w != nil {
		io.WriteString(w, "\r\033[K")
	}
}

// collect merges the workers' counts and histograms once they have ended.
func collect(c Config, p *plan, ws []*worker, elapsed time.Duration, samples []Sample) *Result {
	res := &Result{
		URL:         c.URL,
		Connections: p.connections,
		Pipeline:    p.pipeline,
		Rate:        c.Rate,
		Elapsed:     elapsed,
		Samples:     samples,
		Latency:     hdrhistogram.New(histMin, max(histMaxUS, 2*p.timeout/int64(time.Microsecond)), histSigFigs),
	}
	var firstAt [kindCount]int64
	for _, w := range ws {
		res.Requests += w.live.requests.Load()
		res.Bytes += w.live.bytes.Load()
		for k, n := range w.counts.errors {
			res.Errors[k] += n
			if err := w.counts.first[k]; err != nil && (res.FirstErrors[k] == nil || w.counts.firstAt[k] < firstAt[k]) {
				res.FirstErrors[k], firstAt[k] = err, w.counts.firstAt[k]
			}
		}
		for k, n := range w.counts.status {
			res.Status[k] += n
		}
		res.Latency.Merge(w.hist)
	}
	res.ConnectErr = res.FirstErrors[KindConnect]
	return res
}

// probe opens one connection to p.addr, within the request timeout, and
// closes it.
func probe(ctx context.Context, p *plan) error {
	d := net.Dialer{Timeout: time.Duration(p.timeout)}
	c, err := d.DialContext(ctx, "tcp", p.addr)
	if err != nil {
		return &ConnectError{Addr: p.addr, Err: err}
	}
	return c.Close()
}
