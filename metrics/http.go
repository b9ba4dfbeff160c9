package metrics

import (
	"crypto/tls"
	"net"
	"strconv"
	"strings"
	"sync"

	"github.com/brisk-http/brisk"
	"github.com/prometheus/client_golang/prometheus"
)

// HTTPServer is an Observer (and RejectObserver) exporting a server's
// metrics under the names and labels of the OpenTelemetry semantic
// conventions for HTTP servers, as Prometheus spells them, plus brisk's
// own series where the conventions have none:
//
//	http_server_request_duration_seconds      histogram (LatencyBuckets)
//	http_server_request_body_size_bytes       histogram (SizeBuckets)
//	http_server_response_body_size_bytes      histogram (SizeBuckets)
//	http_server_active_requests               gauge
//	brisk_server_connections{state}           gauge: "new", "active", "idle"
//	brisk_server_tls_handshakes_total{result, tls_protocol_version} counter
//	brisk_server_rejected_requests_total{http_response_status_code} counter
//	brisk_server_request_errors_total{error_type} counter
//
// The three histograms have the labels http_request_method (RFC 9110
// method names; any other method is "_OTHER"), http_response_status_code
// (100 to 599; any other code is "_OTHER"), http_route (the path of
// RequestInfo.Route, the router's pattern, without its method:
// "/users/{id}"; "" when unrouted: never the request's path) and
// network_protocol_version ("1.0", "1.1" or "2", from RequestInfo.Proto;
// "1.1" for a rejected request, whose version is not known). The cardinality is
// bounded: at most MaxSeries label sets per histogram; the requests of
// label sets beyond it are counted with http_route "_OTHER".
//
// Requests rejected before the Handler (Server.OnReject) whose head did
// not parse (400, 414, 431, 501, 505...) count in the request metrics too,
// with duration 0 and no body sizes, method "_OTHER" unless the request
// line got far enough, and in brisk_server_rejected_requests_total; the
// others (413 for a Content-Length too large, a request-target that does
// not decode) reach OnRequestDone as well and are counted there, once.
//
// The body sizes are the bytes of the message as it crossed the
// connection, head included (RequestInfo.BytesRead, BytesWritten): what
// the network carried, not the content length.
//
// http_server_active_requests counts the HTTP/1.x connections between a
// request's first bytes (StateActive) and the end of its response
// (StateIdle, StateClosed, StateHijacked): such a connection serves one
// request at a time, pipelined ones in turn. brisk_server_connections
// counts each open connection under its last state (ConnState); a
// hijacked connection leaves the counts. The hooks do not report HTTP/2
// streams as they start: an HTTP/2 connection is one connection in state
// "new" (over TLS, handed over after its handshake) or "active" (h2c, from
// its preface) until it closes, and an h2c connection counts as one
// active request meanwhile; its requests are in the histograms.
//
// A TLS handshake is counted (result "ok" or "failed", and the version
// negotiated: "1.2", "1.3") when the connection's first request arrives,
// or when the connection closes, whichever comes first: an HTTP/2
// connection's at its close.
//
// brisk_server_request_errors_total counts the requests that ended with an
// error (RequestInfo.Err) by ErrorType: clients that reset, time out or
// go silent mid-request, bodies that do not frame.
//
// RequestDone and the connection states allocate nothing once a label set
// has been seen; each connection costs one map entry while open.
type HTTPServer struct {
	duration, reqSize, respSize *prometheus.HistogramVec
	active                      prometheus.Gauge
	conns                       [3]prometheus.Gauge // by trackedState
	handshakes                  *prometheus.CounterVec
	rejected                    *prometheus.CounterVec
	errs                        map[string]prometheus.Counter // by ErrorType

	mu     sync.RWMutex
	series map[seriesKey]*series

	connMu sync.Mutex
	open   map[net.Conn]connEntry
}

// MaxSeries bounds the label sets of each request histogram of an
// HTTPServer.
const MaxSeries = 2000

// SizeBuckets are the upper bounds, in bytes, of the size histograms:
// 64 B to 64 MiB, by factors of 4.
var SizeBuckets = prometheus.ExponentialBuckets(64, 4, 11)

// seriesKey identifies one label set of the request histograms.
type seriesKey struct {
	method int // index in methods; len(methods) for _OTHER
	status int // 100..599, or 0 for _OTHER
	route  string
	proto  string
}

// series holds the observers of one label set.
type series struct {
	duration, reqSize, respSize prometheus.Observer
}

// connEntry is what an HTTPServer remembers of an open connection.
type connEntry struct {
	state     brisk.ConnState
	handshake bool // the TLS handshake is counted
}

// trackedState maps a ConnState to its index in HTTPServer.conns; -1 for
// states that are not counted (hijacked, closed).
func trackedState(st brisk.ConnState) int {
	switch st {
	case brisk.StateNew:
		return 0
	case brisk.StateActive:
		return 1
	case brisk.StateIdle:
		return 2
	}
	return -1
}

var connStateLabels = [3]string{"new", "active", "idle"}

// NewHTTPServer registers the collectors with reg and returns the
// observer. It panics if they are already registered there.
func NewHTTPServer(reg prometheus.Registerer) *HTTPServer {
	labels := []string{"http_request_method", "http_response_status_code", "http_route", "network_protocol_version"}
	h := &HTTPServer{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "http_server_request_duration_seconds",
			Help:    "Duration of HTTP server requests: from the parsed request head to the last byte of the response accepted by the connection.",
			Buckets: LatencyBuckets}, labels),
		reqSize: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "http_server_request_body_size_bytes",
			Help:    "Size of HTTP server requests as read from the connection, head and framing included.",
			Buckets: SizeBuckets}, labels),
		respSize: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "http_server_response_body_size_bytes",
			Help:    "Size of HTTP server responses as written to the connection, head included.",
			Buckets: SizeBuckets}, labels),
		active: prometheus.NewGauge(prometheus.GaugeOpts{Name: "http_server_active_requests",
			Help: "HTTP/1.1 connections serving a request: between its first bytes and the end of its response."}),
		handshakes: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "brisk_server_tls_handshakes_total",
			Help: "TLS handshakes by result (ok, failed) and negotiated version."}, []string{"result", "tls_protocol_version"}),
		rejected: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "brisk_server_rejected_requests_total",
			Help: "Requests answered with an error status before the handler ran, by status."}, []string{"http_response_status_code"}),
		errs:   make(map[string]prometheus.Counter),
		series: make(map[seriesKey]*series),
		open:   make(map[net.Conn]connEntry),
	}
	conns := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "brisk_server_connections",
		Help: "Open connections by state (new, active, idle)."}, []string{"state"})
	for i, l := range connStateLabels {
		h.conns[i] = conns.WithLabelValues(l)
	}
	errs := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "brisk_server_request_errors_total",
		Help: "Requests that ended with an error, by type (see metrics.ErrorType)."}, []string{"error_type"})
	for _, t := range ErrorTypes {
		h.errs[t] = errs.WithLabelValues(t)
	}
	reg.MustRegister(h.duration, h.reqSize, h.respSize, h.active, conns, h.handshakes, h.rejected, errs)
	return h
}

// AcceptErrors returns a counter, brisk_server_accept_errors_total, of
// the times Accept failed on srv's listeners (brisk.Server.AcceptErrors:
// mostly a process out of file descriptors), to register with the same
// registry.
func AcceptErrors(srv *brisk.Server) prometheus.Collector {
	return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "brisk_server_accept_errors_total",
		Help: "Times Accept failed with a temporary error (EMFILE, ENFILE) and was retried."},
		func() float64 { return float64(srv.AcceptErrors()) })
}

// RequestDone records a finished request.
func (h *HTTPServer) RequestDone(in *brisk.RequestInfo) {
	s := h.lookup(seriesKey{methodIndex(in.Method), statusIndex(in.Status), routePath(in.Route), protoVersion(in)})
	s.duration.Observe(in.Duration.Seconds())
	s.reqSize.Observe(float64(in.BytesRead))
	s.respSize.Observe(float64(in.BytesWritten))
	if in.Err != nil {
		h.errs[ErrorType(in.Err)].Inc()
	}
}

// Reject records a request answered before the Handler; see HTTPServer
// for which of them count as requests here.
func (h *HTTPServer) Reject(r brisk.Rejection) {
	h.rejected.WithLabelValues(statusLabel(statusIndex(r.Status))).Inc()
	if r.HeadParsed() {
		return // OnRequestDone reports it
	}
	h.lookup(seriesKey{methodIndex(r.Method), statusIndex(r.Status), "", "1.1"}).duration.Observe(0)
}

// ConnState tracks the connections by state and counts TLS handshakes.
func (h *HTTPServer) ConnState(nc net.Conn, st brisk.ConnState) {
	h.connMu.Lock()
	e, known := h.open[nc]
	countTLS := !e.handshake && (st == brisk.StateActive || st == brisk.StateClosed)
	switch {
	case st == brisk.StateClosed || st == brisk.StateHijacked:
		delete(h.open, nc)
	case known || st == brisk.StateNew:
		h.open[nc] = connEntry{state: st, handshake: e.handshake || countTLS}
	}
	h.connMu.Unlock()
	h.leave(e.state, known)
	if i := trackedState(st); i >= 0 {
		h.conns[i].Inc()
		if st == brisk.StateActive {
			h.active.Inc()
		}
	}
	if countTLS {
		h.countHandshake(nc)
	}
}

// leave takes a connection out of the count of its previous state prev,
// when known.
func (h *HTTPServer) leave(prev brisk.ConnState, known bool) {
	if !known {
		return
	}
	if i := trackedState(prev); i >= 0 {
		h.conns[i].Dec()
		if prev == brisk.StateActive {
			h.active.Dec()
		}
	}
}

// countHandshake counts the TLS handshake of nc, if it is a TLS
// connection.
func (h *HTTPServer) countHandshake(nc net.Conn) {
	tc, ok := nc.(*tls.Conn)
	if !ok {
		return
	}
	cs := tc.ConnectionState()
	if !cs.HandshakeComplete {
		h.handshakes.WithLabelValues("failed", "").Inc()
		return
	}
	h.handshakes.WithLabelValues("ok", tlsVersion(cs.Version)).Inc()
}

// tlsVersion names a TLS version as OpenTelemetry's tls.protocol.version
// does.
func tlsVersion(v uint16) string {
	switch v {
	case tls.VersionTLS13:
		return "1.3"
	case tls.VersionTLS12:
		return "1.2"
	case tls.VersionTLS11:
		return "1.1"
	case tls.VersionTLS10:
		return "1.0"
	}
	return "_OTHER"
}

// lookup returns the observers of k, made at first use; past MaxSeries,
// those of k with route "_OTHER".
func (h *HTTPServer) lookup(k seriesKey) *series {
	h.mu.RLock()
	s := h.series[k]
	h.mu.RUnlock()
	if s != nil {
		return s
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if s = h.series[k]; s != nil {
		return s
	}
	if len(h.series) >= MaxSeries {
		k.route = "_OTHER"
		if s = h.series[k]; s != nil {
			return s
		}
	}
	lv := []string{methodLabel(k.method), statusLabel(k.status), k.route, k.proto}
	s = &series{h.duration.WithLabelValues(lv...), h.reqSize.WithLabelValues(lv...), h.respSize.WithLabelValues(lv...)}
	h.series[k] = s
	return s
}

// routePath returns the path template of a router's pattern, without
// the method a pattern such as "GET /users/{id}" begins with: the
// http.route of the semantic conventions, the method having a label of
// its own. A pattern without a path gives "".
func routePath(pattern string) string {
	if i := strings.IndexByte(pattern, '/'); i >= 0 {
		return pattern[i:]
	}
	return ""
}

// methods are the method names of RFC 9110 §9 and PATCH (RFC 5789), the
// known values of http_request_method.
var methods = [...]string{"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"}

// methodIndex returns the index of m in methods, or len(methods) for
// another method (or none).
func methodIndex(m []byte) int {
	for i, k := range methods {
		if string(m) == k {
			return i
		}
	}
	return len(methods)
}

func methodLabel(i int) string {
	if i < len(methods) {
		return methods[i]
	}
	return "_OTHER"
}

// statusIndex returns code when it is a valid status code (100..599),
// else 0.
func statusIndex(code int) int {
	if code < 100 || code > 599 {
		return 0
	}
	return code
}

// statusLabels are the label values of the status codes 100..599.
var statusLabels = func() (s [600]string) {
	s[0] = "_OTHER"
	for i := 100; i < 600; i++ {
		s[i] = strconv.Itoa(i)
	}
	return
}()

func statusLabel(i int) string { return statusLabels[i] }

// protoVersion returns the network_protocol_version of a request, as
// OpenTelemetry spells it: "1.0", "1.1", "2", "3".
func protoVersion(in *brisk.RequestInfo) string {
	switch in.Proto {
	case "HTTP/2.0":
		return "2"
	case "HTTP/3.0":
		return "3"
	case "HTTP/1.0":
		return "1.0"
	}
	return "1.1"
}
