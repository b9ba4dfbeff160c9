// Package metrics provides ready-made metrics over a brisk.Server's
// hooks (Server.ConnState, Server.OnRequestDone, Server.OnReject):
// HTTPServer exports the OpenTelemetry HTTP server metrics (request
// duration and sizes by method, status, route and protocol; active
// requests) with connections by state, TLS handshakes and rejected
// requests, as Prometheus collectors (github.com/prometheus/client_golang);
// Prometheus and Expvar keep simpler counts by status class. The brisk
// package itself depends on none of them.
//
//	reg := prometheus.NewRegistry()
//	metrics.Install(srv, metrics.NewHTTPServer(reg))
//
// Neither observer allocates per request.
package metrics

import (
	"net"

	"github.com/brisk-http/brisk"
)

// Observer receives a Server's hook calls.
type Observer interface {
	// RequestDone is called from Server.OnRequestDone.
	RequestDone(*brisk.RequestInfo)
	// ConnState is called from Server.ConnState.
	ConnState(net.Conn, brisk.ConnState)
}

// RejectObserver is an Observer that also receives Server.OnReject
// calls: the requests answered before the Handler (see brisk.Rejection).
type RejectObserver interface {
	Observer
	// Reject is called from Server.OnReject.
	Reject(brisk.Rejection)
}

// Install sets s.OnRequestDone and s.ConnState, and s.OnReject when an
// observer is a RejectObserver, to call, in order, the hooks already set
// and each observer. Call it before s serves.
func Install(s *brisk.Server, obs ...Observer) {
	prevDone, prevState := s.OnRequestDone, s.ConnState
	installReject(s, obs)
	s.OnRequestDone = func(in *brisk.RequestInfo) {
		if prevDone != nil {
			prevDone(in)
		}
		for _, o := range obs {
			o.RequestDone(in)
		}
	}
	s.ConnState = func(nc net.Conn, st brisk.ConnState) {
		if prevState != nil {
			prevState(nc, st)
		}
		for _, o := range obs {
			o.ConnState(nc, st)
		}
	}
}

// Classes are the status class labels, indexed by status code / 100:
// "1xx" .. "5xx", and "other" (index 0) for a code outside 100..599.
var Classes = [6]string{"other", "1xx", "2xx", "3xx", "4xx", "5xx"}

// classOf returns the index in Classes of a status code.
func classOf(code int) int {
	if code < 100 || code > 599 {
		return 0
	}
	return code / 100
}

// LatencyBuckets are the upper bounds, in seconds, of the latency
// histograms: 100 µs to 10 s.
var LatencyBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// installReject sets s.OnReject to call the hook already set and each
// observer that is a RejectObserver, if any is.
func installReject(s *brisk.Server, obs []Observer) {
	var rs []RejectObserver
	for _, o := range obs {
		if r, ok := o.(RejectObserver); ok {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return
	}
	prev := s.OnReject
	s.OnReject = func(r brisk.Rejection) {
		if prev != nil {
			prev(r)
		}
		for _, o := range rs {
			o.Reject(r)
		}
	}
}
