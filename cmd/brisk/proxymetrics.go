package main

import (
	"errors"
	"strconv"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/reverseproxy"
	"github.com/prometheus/client_golang/prometheus"
)

// proxyMetrics are the upstream metrics of `brisk proxy -metrics`, fed by
// the completion record of each proxied request (beside the server's
// own, installMetrics):
//
//	brisk_proxy_upstream_requests_total{upstream, status}: requests whose
//	  last attempt went to upstream, by the upstream's status code ("0"
//	  when no response head arrived);
//	brisk_proxy_upstream_response_head_seconds{upstream}: from the start
//	  of that attempt to the upstream's response head (Record.Head);
//	brisk_proxy_upstream_errors_total{upstream, phase}: requests that
//	  failed or were cut short, by the phase (dial, tls, request,
//	  response, upgrade; upstream "" for pick: none was chosen).
type proxyMetrics struct {
	requests *prometheus.CounterVec
	head     *prometheus.HistogramVec
	errs     *prometheus.CounterVec
}

// newProxyMetrics registers the upstream metrics with reg.
func newProxyMetrics(reg *prometheus.Registry) *proxyMetrics {
	m := &proxyMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "brisk_proxy_upstream_requests_total",
			Help: "Proxied requests by the upstream of their last attempt and its status code (0: no response head)."},
			[]string{"upstream", "status"}),
		head: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "brisk_proxy_upstream_response_head_seconds",
			Help:    "Time from the start of a request's last attempt to the upstream's response head.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10)}, []string{"upstream"}),
		errs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "brisk_proxy_upstream_errors_total",
			Help: "Proxied requests that failed or were cut short, by upstream and phase."},
			[]string{"upstream", "phase"}),
	}
	reg.MustRegister(m.requests, m.head, m.errs)
	return m
}

// observe is a Proxy.OnComplete hook: it counts r.
func (m *proxyMetrics) observe(_ *brisk.Ctx, r *reverseproxy.Record) {
	if r.Upstream != "" {
		m.requests.WithLabelValues(r.Upstream, strconv.Itoa(r.Status)).Inc()
		if r.Status != 0 {
			m.head.WithLabelValues(r.Upstream).Observe(r.Head.Seconds())
		}
	}
	var e *reverseproxy.Error
	if errors.As(r.Err, &e) {
		m.errs.WithLabelValues(e.Upstream, e.Phase.String()).Inc()
	}
}

// chainComplete returns a hook calling a, then b; either may be nil.
func chainComplete(a, b func(*brisk.Ctx, *reverseproxy.Record)) func(*brisk.Ctx, *reverseproxy.Record) {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(c *brisk.Ctx, r *reverseproxy.Record) {
		a(c, r)
		b(c, r)
	}
}
