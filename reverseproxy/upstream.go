package reverseproxy

import (
	"context"
	"crypto/tls"
	"net"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/limit"
	"github.com/brisk-http/brisk/proxyproto"
)

// upstream is one server of the Proxy, with its connection pool.
type upstream struct {
	name    string // the URL as configured
	host    string // "host:port", the Host sent with UpstreamHost
	hc      brisk.HostClient
	tls     bool
	tlsConf *tls.Config
	p       *Proxy

	pending   atomic.Int64 // requests in progress
	penaltyTo atomic.Int64 // unix nanoseconds until which it gets no request
	down      atomic.Bool  // the last active health check failed
}

// setup resolves the limits and builds the upstreams, once.
func (p *Proxy) setup() {
	l := &p.lim
	l.dial = limit.Timeout(p.DialTimeout, DefaultDialTimeout)
	l.tls = limit.Timeout(p.TLSHandshakeTimeout, DefaultTLSHandshakeTimeout)
	l.head = limit.Timeout(p.ResponseHeaderTimeout, DefaultResponseHeaderTimeout)
	l.idle = limit.Timeout(p.IdleTimeout, DefaultIdleTimeout)
	l.penalty = limit.Timeout(p.HealthPenalty, DefaultHealthPenalty)
	p.budget.tokens.Store(retryReserve)
	l.retries = p.MaxRetries
	switch {
	case l.retries == 0:
		l.retries = DefaultMaxRetries
	case l.retries < 0:
		l.retries = 0
	}
	l.ratio = p.RetryRatio
	if l.ratio == 0 {
		l.ratio = DefaultRetryRatio
	}
	l.via = p.Via
	if l.via == "" {
		l.via = "brisk"
	}
	l.fwd = p.Forwarding
	if l.fwd == 0 {
		l.fwd = DefaultForwarding
	}
	for _, s := range p.Upstreams {
		u, err := p.newUpstream(s)
		if err != nil {
			p.setupErr, p.ups = err, nil
			return
		}
		p.ups = append(p.ups, u)
	}
	p.startHealthChecks()
}

// newUpstream parses one entry of Upstreams.
func (p *Proxy) newUpstream(s string) (*upstream, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, &url.Error{Op: "parse", URL: s, Err: ErrUpstreamURL}
	}
	host := u.Host
	if u.Port() == "" {
		port := "80"
		if u.Scheme == "https" {
			port = "443"
		}
		host = net.JoinHostPort(u.Hostname(), port)
	}
	up := &upstream{name: s, host: u.Host, tls: u.Scheme == "https", p: p}
	up.hc.ClientConfig = p.Client
	c := &up.hc.ClientConfig
	c.Dial = up.dial
	c.DialTimeout = -1 // bounded by the dial function and the attempt
	c.Timeout = p.lim.head
	if p.lim.head == 0 {
		c.Timeout = -1
	}
	c.KeepContentEncoding = true
	c.MaxIdempotentRetries = -1 // probe every reused connection: see Proxy.Client
	c.Jar, c.Proxy, c.MaxRedirects, c.TLSConfig = nil, nil, 0, nil
	c.ProxyHeader = nil // written by dial, before TLS
	up.hc.Addr = host
	if up.tls {
		up.tlsConf = p.tlsConfig(u.Hostname())
	}
	return up, nil
}

// tlsConfig returns the TLS configuration for an upstream named
// serverName: a clone of Client.TLSConfig offering HTTP/1.1 only.
func (p *Proxy) tlsConfig(serverName string) *tls.Config {
	var c *tls.Config
	if p.Client.TLSConfig != nil {
		c = p.Client.TLSConfig.Clone()
	} else {
		c = &tls.Config{}
	}
	if c.ServerName == "" {
		c.ServerName = serverName
	}
	c.NextProtos = []string{"http/1.1"}
	return c
}

// dial opens a connection to the upstream for its HostClient: TCP within
// DialTimeout, then TLS within TLSHandshakeTimeout, each timed into the
// Record of the exchange that caused it (ctx carries it).
func (u *upstream) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	l := &u.p.lim
	rec, _ := ctx.Value(recordKey{}).(*Record)
	start := time.Now()
	nc, err := u.dialTCP(ctx, network, addr)
	if rec != nil {
		rec.Dial = time.Since(start)
	}
	if err == nil {
		err = u.writeProxyHeader(nc)
	}
	if err != nil {
		return nil, &dialError{PhaseDial, err}
	}
	uc := &upstreamConn{Conn: nc, idle: l.idle}
	if !u.tls {
		return uc, nil
	}
	start = time.Now()
	tc := tls.Client(uc, u.tlsConf)
	hctx, cancel := ctx, context.CancelFunc(nil)
	if l.tls > 0 {
		hctx, cancel = context.WithTimeout(ctx, l.tls)
	}
	err = tc.HandshakeContext(hctx)
	if cancel != nil {
		cancel()
	}
	if rec != nil {
		rec.TLS = time.Since(start)
	}
	if err != nil {
		nc.Close()
		return nil, &dialError{PhaseTLS, err}
	}
	return tc, nil
}

// writeProxyHeader sends the PROXY protocol header Client.ProxyHeader
// gives for nc, before TLS; on error nc is closed.
func (u *upstream) writeProxyHeader(nc net.Conn) error {
	if u.p.Client.ProxyHeader == nil {
		return nil
	}
	h := u.p.Client.ProxyHeader(nc)
	if h == nil {
		return nil
	}
	b, err := proxyproto.Append(nil, h)
	if err == nil {
		_, err = nc.Write(b)
	}
	if err != nil {
		nc.Close()
	}
	return err
}

// dialTCP opens the TCP connection within DialTimeout.
func (u *upstream) dialTCP(ctx context.Context, network, addr string) (net.Conn, error) {
	if d := u.p.lim.dial; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	if u.p.Dial != nil {
		return u.p.Dial(ctx, network, addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

// healthy reports whether u is out of its penalty period at now.
func (u *upstream) healthy(now int64) bool { return !u.down.Load() && u.penaltyTo.Load() <= now }

// penalize keeps requests away from u for the penalty period.
func (u *upstream) penalize() {
	if d := u.p.lim.penalty; d > 0 {
		u.penaltyTo.Store(time.Now().Add(d).UnixNano())
	}
}

// pick chooses the upstream for an attempt, skipping those in tried (a
// bit set by index, for the first 64) and, unless all are, those in their
// penalty period. It returns -1 when none is left.
func (p *Proxy) pick(tried uint64) int {
	n := len(p.ups)
	if n == 0 {
		return -1
	}
	start := int(atomic.AddUint32(&p.next, 1) % uint32(n))
	now := time.Now().UnixNano()
	best, bestAny := -1, -1
	var bestLoad int64
	for k := range n {
		i := (start + k) % n
		if i < 64 && tried&(1<<i) != 0 {
			continue
		}
		if bestAny < 0 {
			bestAny = i
		}
		u := p.ups[i]
		if !u.healthy(now) {
			continue
		}
		if p.Balance == RoundRobin {
			return i
		}
		if load := u.pending.Load(); best < 0 || load < bestLoad {
			best, bestLoad = i, load
		}
	}
	if best >= 0 {
		return best
	}
	if tried == 0 {
		return bestAny // all in their penalty: try one anyway
	}
	return -1
}

// CloseIdleConnections closes the idle connections to every upstream.
func (p *Proxy) CloseIdleConnections() {
	for _, u := range p.ups {
		u.hc.CloseIdleConnections()
	}
}

// retryBudget lets retries add at most ratio of the requests (plus a
// reserve of retryReserve).
type retryBudget struct {
	tokens atomic.Int64 // in thousandths of a retry
}

const retryReserve = 10 * 1000

// deposit credits one request.
func (b *retryBudget) deposit(ratio float64) {
	if ratio < 0 {
		return
	}
	if b.tokens.Add(int64(ratio*1000)) > retryReserve {
		b.tokens.Store(retryReserve)
	}
}

// withdraw takes one retry from the budget, reporting whether there was
// one.
func (b *retryBudget) withdraw(ratio float64) bool {
	if ratio < 0 {
		return true
	}
	if b.tokens.Add(-1000) < 0 {
		b.tokens.Add(1000)
		return false
	}
	return true
}

// Check parses Upstreams as the first request does and returns the error
// that would make every request a 500 (a *url.Error wrapping
// ErrUpstreamURL), nil when every entry is valid: call it before serving
// to fail at start-up. The Proxy's fields must be set before.
func (p *Proxy) Check() error {
	p.once.Do(p.setup)
	return p.setupErr
}
