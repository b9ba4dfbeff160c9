package load

import (
	"net"
	"net/url"
	"strings"
	"time"
)

// Defaults used when a Config field is zero.
const (
	DefaultConnections = 50
	DefaultDuration    = 10 * time.Second
	DefaultMethod      = "GET"
)

// Config describes one load run. The zero value of each field is
// documented; only URL is required.
type Config struct {
	// URL is the target, "http://host[:port]/path?query". The port
	// defaults to 80; https is not supported (ErrURL).
	URL string

	// Connections is the number of concurrent TCP connections, each
	// driven by its own goroutine. Zero means DefaultConnections (50);
	// negative is ErrConnections.
	Connections int

	// Duration bounds the run in wall-clock time. Zero means
	// DefaultDuration (10 s) when Requests is zero too, and no time limit
	// otherwise. Requests still in flight when it ends are not counted.
	Duration time.Duration

	// Requests is the total number of requests to complete (answered or
	// failed), split evenly over the connections. Zero means no limit;
	// the run then ends after Duration.
	Requests int64

	// Pipeline is the number of requests kept in flight on each
	// connection (HTTP/1.1 pipelining, RFC 9112 §9.3.2). Zero means 1;
	// negative is ErrPipeline.
	Pipeline int

	// Method is the request method. Empty means DefaultMethod (GET).
	// For HEAD, responses are read without a body (RFC 9112 §6.3).
	Method string

	// Header holds extra field lines, each "Name: value". A Host line
	// replaces the one derived from URL. Content-Length is set from Body.
	Header []string

	// Body is the request content, sent with a Content-Length field on
	// every request. Empty means no content (and no Content-Length,
	// except "Content-Length: 0" for POST, PUT and PATCH).
	Body []byte

	// BodyFile names a regular file sent as the body of every request,
	// with its size as Content-Length, replacing Body. It is read from
	// the file for each request (sendfile on Linux), so that a large
	// upload costs no memory per connection or request.
	BodyFile string

	// Proxy is an HTTP forward proxy, "http://[user:password@]host[:port]",
	// through which to send the load: connections go to it, requests
	// carry the absolute-form target (RFC 9112 §3.2.2) and, with a user,
	// Basic Proxy-Authorization. Empty means none. Another form is
	// ErrProxy.
	Proxy string

	// HTTP10 sends HTTP/1.0 requests. Unless Header has
	// "Connection: keep-alive", every response then ends its connection
	// and each request opens a new one.
	HTTP10 bool

	// Timeout bounds each request, from its send time (intended send
	// time when Rate is set) to the end of its response. A request past
	// it is counted as KindTimeout and its connection is reopened. Zero
	// means no timeout.
	Timeout time.Duration

	// Rate is the target total request rate, in requests per second,
	// spread evenly over the connections (open loop). Latency is then
	// measured from each request's intended send time, so a server stall
	// shows as the queueing it causes (coordinated-omission correction).
	// Zero means closed loop: send as fast as responses allow; negative
	// is ErrRate.
	Rate float64
}

// plan is a validated Config in the form the workers use: read-only and
// shared by all of them.
type plan struct {
	addr        string // host:port to dial
	request     []byte // one encoded request
	batch       []byte // request repeated pipeline times
	pipeline    int    // requests in flight per connection
	connections int    // number of workers
	duration    time.Duration
	requests    int64   // total budget, 0 = unlimited
	timeout     int64   // ns, 0 = none
	interval    float64 // ns between intended sends on one connection, 0 = closed loop
	bodyFile    string  // with bodySize >= 0: the body, read per request
	bodySize    int64   // size of bodyFile; -1: none
	headRequest bool    // responses carry no body
	closeEach   bool    // every response ends the connection (HTTP/1.0)
}

// newPlan validates c and applies the defaults.
func newPlan(c Config) (*plan, error) {
	p := &plan{
		connections: c.Connections,
		pipeline:    c.Pipeline,
		duration:    c.Duration,
		requests:    c.Requests,
		timeout:     int64(c.Timeout),
	}
	switch {
	case p.connections == 0:
		p.connections = DefaultConnections
	case p.connections < 0:
		return nil, ErrConnections
	}
	switch {
	case p.pipeline == 0:
		p.pipeline = 1
	case p.pipeline < 0:
		return nil, ErrPipeline
	}
	if p.duration <= 0 && p.requests <= 0 {
		p.duration = DefaultDuration
	}
	if c.Rate < 0 {
		return nil, ErrRate
	}
	if c.Rate > 0 {
		p.interval = float64(time.Second) * float64(p.connections) / c.Rate
	}
	u, err := url.Parse(c.URL)
	if err != nil || u.Scheme != "http" || u.Host == "" || u.User != nil {
		return nil, ErrURL
	}
	p.addr = dialAddr(u)
	method := c.Method
	if method == "" {
		method = DefaultMethod
	}
	p.headRequest = method == "HEAD"
	target, proxyFields, err := applyProxy(p, c, u)
	if err != nil {
		return nil, err
	}
	c.Header = append(proxyFields, c.Header...)
	if p.bodySize, err = bodyFileSize(c); err != nil {
		return nil, err
	}
	p.bodyFile = c.BodyFile
	req, keepAlive, err := encodeRequest(method, target, u.Host, c, p.bodySize)
	if err != nil {
		return nil, err
	}
	p.closeEach = c.HTTP10 && !keepAlive
	p.request = req
	p.batch = []byte(strings.Repeat(string(req), p.pipeline))
	return p, nil
}

// dialAddr returns the host:port to connect to for the http URL u: its
// host, with port 80 when it names none.
func dialAddr(u *url.URL) string {
	if u.Port() == "" {
		return net.JoinHostPort(u.Hostname(), "80")
	}
	return u.Host
}
