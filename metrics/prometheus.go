package metrics

import (
	"net"

	"github.com/brisk-http/brisk"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"
)

// Prometheus is an Observer exporting, under a namespace ns:
//
//	ns_requests_total{class="2xx"}                counter
//	ns_request_duration_seconds{class="2xx"}      histogram (LatencyBuckets)
//	ns_request_bytes_read_total                   counter
//	ns_response_bytes_written_total               counter
//	ns_connections_open                           gauge
//
// All label values exist from the start, so a scrape sees zeros rather
// than missing series.
type Prometheus struct {
	requests [len(Classes)]prometheus.Counter
	latency  [len(Classes)]prometheus.Observer
	read     prometheus.Counter
	written  prometheus.Counter
	open     prometheus.Gauge
}

// NewPrometheus registers the collectors with reg under the namespace ns
// (e.g. "brisk"). It panics if they are already registered there.
func NewPrometheus(reg prometheus.Registerer, ns string) *Prometheus {
	reqs := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "requests_total",
		Help: "Requests answered, by status class."}, []string{"class"})
	lat := prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Name: "request_duration_seconds",
		Help: "Time from the parsed request head to the response handed to the connection, by status class.", Buckets: LatencyBuckets}, []string{"class"})
	p := &Prometheus{
		read: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "request_bytes_read_total",
			Help: "Request bytes consumed from connections."}),
		written: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "response_bytes_written_total",
			Help: "Response bytes written to connections."}),
		open: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Name: "connections_open",
			Help: "Connections accepted and not yet closed or hijacked."}),
	}
	for i, c := range Classes {
		p.requests[i] = reqs.WithLabelValues(c)
		p.latency[i] = lat.WithLabelValues(c)
	}
	reg.MustRegister(reqs, lat, p.read, p.written, p.open)
	return p
}

// RequestDone counts the request.
func (p *Prometheus) RequestDone(in *brisk.RequestInfo) {
	i := classOf(in.Status)
	p.requests[i].Inc()
	p.latency[i].Observe(in.Duration.Seconds())
	p.read.Add(float64(in.BytesRead))
	p.written.Add(float64(in.BytesWritten))
}

// ConnState tracks the open connections: accepted (StateNew), and not
// yet closed (StateClosed) or taken over by a handler (StateHijacked).
func (p *Prometheus) ConnState(_ net.Conn, st brisk.ConnState) {
	switch st {
	case brisk.StateNew:
		p.open.Inc()
	case brisk.StateClosed, brisk.StateHijacked: // a hijacked connection is not closed by brisk
		p.open.Dec()
	}
}

// Handler returns a brisk.Handler answering with g's metrics in the
// Prometheus text exposition format (version 0.0.4); a gathering error
// is answered 500.
func Handler(g prometheus.Gatherer) brisk.Handler {
	format := expfmt.NewFormat(expfmt.TypeTextPlain)
	return func(c *brisk.Ctx) {
		mfs, err := g.Gather()
		if err != nil {
			c.Response.SetStatusCode(500)
			c.Response.WriteString("gathering metrics failed\n")
			c.Logger().Error("metrics: gather", "err", err)
			return
		}
		c.Response.Header.Set("Content-Type", string(format))
		enc := expfmt.NewEncoder(&c.Response, format)
		for _, mf := range mfs {
			if err := enc.Encode(mf); err != nil {
				c.Logger().Error("metrics: encode", "err", err)
				return
			}
		}
	}
}
