package reverseproxy

import (
	"context"
	"net"
	"sync"
	"time"

	"github.com/brisk-http/brisk"
)

// Defaults of the Proxy's limits, used when the field is zero.
const (
	DefaultDialTimeout           = 5 * time.Second
	DefaultTLSHandshakeTimeout   = 10 * time.Second
	DefaultResponseHeaderTimeout = 60 * time.Second
	DefaultIdleTimeout           = 60 * time.Second
	DefaultHealthPenalty         = 3 * time.Second
	DefaultMaxRetries            = 1
	DefaultRetryRatio            = 0.2
)

// Balance is how a Proxy spreads requests over its upstreams.
type Balance uint8

const (
	// LeastPending sends each request to the upstream with the fewest
	// requests in progress from this Proxy, the first such in a rotating
	// order on a tie.
	LeastPending Balance = iota
	// RoundRobin sends requests to the upstreams in turn.
	RoundRobin
)

// Proxy is a reverse proxy: Serve forwards each request to an upstream
// and relays its response (see the package documentation). Set the fields
// before the first request and do not change them afterwards. A Proxy is
// safe for concurrent use.
type Proxy struct {
	// Upstreams are the servers requests go to, as URLs
	// "http://host:port" or "https://host:port" (the port defaults to 80
	// or 443); no path, query, user or fragment. They are read at the
	// first request; an invalid one (ErrUpstreamURL) makes every request
	// a 500. Empty means every request is answered 503 (ErrNoUpstream).
	Upstreams []string

	// Balance chooses among the upstreams; the zero value is
	// LeastPending.
	Balance Balance

	// Client configures each upstream's brisk.HostClient: connection
	// pool (MaxConnsPerHost, IdleConnTimeout, MaxConnLifetime), buffers,
	// limits on response heads, TLSConfig for "https" upstreams,
	// ExpectContinueTimeout, and ProxyHeader: a PROXY protocol header
	// sent on each new upstream connection, before TLS (it describes the
	// connection, which carries the requests of many clients: the
	// client's address goes in the forwarding fields). The Proxy sets Dial, DialTimeout
	// and Timeout itself (from the fields below), KeepContentEncoding
	// (bodies are relayed as they are) and MaxIdempotentRetries (none: an
	// idle connection is probed before every reuse, and closed when an
	// upstream sent bytes unasked, which are then never taken for the
	// next request's response; bytes that arrive after the next request
	// was sent cannot be told from its response, a limit of HTTP/1.1
	// keep-alive that every proxy shares: an upstream that answers
	// unasked can shift its later answers by one until its connection
	// closes. The Proxy retries itself, see MaxRetries); Jar, Proxy and
	// MaxRedirects are ignored (no cookies are stored, no forward proxy,
	// no redirect is followed).
	Client brisk.ClientConfig

	// Dial opens a TCP connection to an upstream's "host:port"; nil means
	// a net.Dialer.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)

	// DialTimeout bounds opening a connection to an upstream, in time.
	// Zero means DefaultDialTimeout (5 s); negative means only the
	// ResponseHeaderTimeout. Expiry answers 504.
	DialTimeout time.Duration

	// TLSHandshakeTimeout bounds the TLS handshake with an "https"
	// upstream. Zero means DefaultTLSHandshakeTimeout (10 s); negative
	// means only ResponseHeaderTimeout. Expiry answers 504; a failed
	// handshake 502.
	TLSHandshakeTimeout time.Duration

	// ResponseHeaderTimeout bounds an attempt from its start (waiting for
	// a free pooled connection, dialling, sending the request head and
	// the request body as the client sends it) until the upstream's
	// response head has arrived. Zero means DefaultResponseHeaderTimeout
	// (60 s); negative means no limit. Expiry answers 504.
	ResponseHeaderTimeout time.Duration

	// IdleTimeout is how long the response body, and an upgraded
	// connection in either direction, may go without a byte from the
	// upstream (or, upgraded, from the client) before the exchange is
	// ended, measured to within an eighth of it or 100 ms, whichever
	// is less (a side is cut after between IdleTimeout less that and
	// IdleTimeout without a byte); a response already started is then
	// cut short. Zero means DefaultIdleTimeout (60 s); negative means no
	// limit. The client's
	// side of an ordinary response is bounded by the Server's
	// WriteTimeout and MinResponseRate.
	IdleTimeout time.Duration

	// MaxRetries is how many other upstreams a request is sent to after
	// an attempt failed before any byte of a response arrived (the
	// connection could not be opened, or was closed with no response),
	// for requests that brisk.Request.Resendable allows (an idempotent
	// method, RFC 9110 §9.2.2, and a body not yet read from the client).
	// Zero means DefaultMaxRetries (1); negative means none. Each
	// upstream is tried at most once per request, but a keep-alive
	// connection closed before any response byte may be followed by a
	// new connection to the same upstream when no other is left.
	MaxRetries int

	// RetryRatio is the retry budget: retries may add at most this
	// fraction of the requests served (plus a reserve of 10 retries), so
	// that retries cannot multiply the load of an overloaded service.
	// Zero means DefaultRetryRatio (0.2); negative means no budget.
	RetryRatio float64

	// HealthPenalty is how long an upstream that failed an attempt (no
	// connection, or a connection closed or timed out with no response)
	// gets no request, unless every upstream is in its penalty (passive
	// health checking). Zero means DefaultHealthPenalty (3 s); negative
	// means none.
	HealthPenalty time.Duration

	// HealthCheck, when set, is the path of an active health check: each
	// upstream gets "GET <HealthCheck>" every HealthInterval, and one that
	// does not answer within the interval or answers 5xx gets no request
	// (as in a penalty period, unless all are down) until a check passes.
	// The checks start at the first request (or Check) and stop at Close.
	// Empty means no active check.
	HealthCheck string

	// HealthInterval is the time between two active health checks of an
	// upstream, and the bound on each. Zero or negative means
	// DefaultHealthInterval (5 s).
	HealthInterval time.Duration

	// Forwarding says which forwarding fields are added to requests; zero
	// means DefaultForwarding (X-Forwarded-* and Via).
	Forwarding Forwarding

	// Via is the pseudonym sent in Via fields (RFC 9110 §7.6.3); "" means
	// "brisk".
	Via string

	// UpstreamHost sends the upstream's authority as the Host field
	// instead of the client's (the client's is then in X-Forwarded-Host
	// or Forwarded "host=" when those are on).
	UpstreamHost bool

	// Rewrite, when set, is called with each request to forward, after
	// the Proxy has built it (method, request-target, fields without the
	// hop-by-hop ones, forwarding fields, Host) and before it is sent: it
	// may change the target, fields and Host. It must not set a body.
	Rewrite func(c *brisk.Ctx, out *brisk.Request)

	// Connect, when set, handles CONNECT requests (RFC 9110 §9.3.6): it
	// returns the connection to tunnel to (usually after checking the
	// authority, c.Request.Host(), against an allow list); an error
	// answers 502 (ErrorHandler gets it). Nil refuses CONNECT with 405
	// (ErrConnectRefused); so is a CONNECT received over HTTP/2 or
	// HTTP/3 (Connect is not called: their streams are not tunnelled).
	Connect func(c *brisk.Ctx) (net.Conn, error)

	// ErrorHandler, when set, writes the response for a request that
	// could not be proxied: it gets the error, whose Status says the
	// status code the Proxy would send (502, 503, 504, or the client's
	// error such as 400 or 413 for a bad request body); it may set any
	// response. Nil means c.Error(err.Status, err): the Server's
	// ErrorHandler (brisk.ErrorHandler) writes it, by default a short
	// plain-text body; never the upstream's bytes. It is not called
	// for a response cut short after it started (Status 0): that one is
	// aborted, and reported to OnComplete.
	ErrorHandler func(c *brisk.Ctx, err *Error)

	// OnComplete, when set, is called once per request, when the Proxy is
	// done with it, with its Record (valid during the call only). For the
	// access log and metrics.
	OnComplete func(c *brisk.Ctx, r *Record)

	once      sync.Once
	ups       []*upstream
	setupErr  error
	next      uint32 // round robin and tie-breaking start
	budget    retryBudget
	exchanges sync.Pool
	lim       limits
	stop      chan struct{}  // closed by Close: stops the health checks
	checkers  sync.WaitGroup // the health checks running
}

// limits are the Proxy's resolved limits (zero: none).
type limits struct {
	dial, tls, head, idle time.Duration
	retries               int
	ratio                 float64
	penalty               time.Duration
	via                   string
	fwd                   Forwarding
}
