package metrics

import (
	"expvar"
	"net"
	"strconv"

	"github.com/brisk-http/brisk"
)

// Expvar is an Observer keeping its counts in an expvar.Map (see Var):
//
//	{"requests": {"2xx": 10, ...},
//	 "latency_seconds": {"2xx": {"0.0001": 3, ..., "+Inf": 10}, ...},
//	 "bytes_read": 1234, "bytes_written": 5678, "connections_open": 2}
//
// Latency buckets are cumulative like Prometheus's: the count of requests
// at most that many seconds long (LatencyBuckets, then "+Inf").
type Expvar struct {
	root     expvar.Map
	requests [len(Classes)]*expvar.Int
	buckets  [len(Classes)][]*expvar.Int // per LatencyBuckets, then +Inf
	read     expvar.Int
	written  expvar.Int
	open     expvar.Int
}

// NewExpvar returns an Expvar with every counter at zero. Publish it with
// expvar.Publish(name, e.Var()).
func NewExpvar() *Expvar {
	e := &Expvar{}
	reqs, lat := new(expvar.Map), new(expvar.Map)
	for i, c := range Classes {
		e.requests[i] = new(expvar.Int)
		reqs.Set(c, e.requests[i])
		hist := new(expvar.Map)
		for _, b := range LatencyBuckets {
			v := new(expvar.Int)
			hist.Set(strconv.FormatFloat(b, 'g', -1, 64), v)
			e.buckets[i] = append(e.buckets[i], v)
		}
		inf := new(expvar.Int)
		hist.Set("+Inf", inf)
		e.buckets[i] = append(e.buckets[i], inf)
		lat.Set(c, hist)
	}
	e.root.Set("requests", reqs)
	e.root.Set("latency_seconds", lat)
	e.root.Set("bytes_read", &e.read)
	e.root.Set("bytes_written", &e.written)
	e.root.Set("connections_open", &e.open)
	return e
}

// Var returns the map holding the counts.
func (e *Expvar) Var() *expvar.Map { return &e.root }

// RequestDone counts the request.
func (e *Expvar) RequestDone(in *brisk.RequestInfo) {
	i := classOf(in.Status)
	e.requests[i].Add(1)
	s := in.Duration.Seconds()
	for j, b := range LatencyBuckets {
		if s <= b {
			e.buckets[i][j].Add(1)
		}
	}
	e.buckets[i][len(LatencyBuckets)].Add(1)
	e.read.Add(in.BytesRead)
	e.written.Add(in.BytesWritten)
}

// ConnState tracks the open connections: accepted (StateNew), and not
// yet closed (StateClosed) or taken over by a handler (StateHijacked).
func (e *Expvar) ConnState(_ net.Conn, st brisk.ConnState) {
	switch st {
	case brisk.StateNew:
		e.open.Add(1)
	case brisk.StateClosed, brisk.StateHijacked: // a hijacked connection is not closed by brisk
		e.open.Add(-1)
	}
}
