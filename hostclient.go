package brisk

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/brisk-http/brisk/wire"
)

// HostClient sends requests to one server, Addr, over a pool of keep-alive
// connections. Client creates one per scheme and authority; use one
// directly to pin requests to an address (the request's Host is still
// sent). Set the fields before the first request. A HostClient is safe
// for concurrent use.
//
// A connection goes back to the pool only after a complete response that
// allows keep-alive (RFC 9112 §9.3) and that ended exactly at the end of
// the bytes received: bytes left over after it (a body on a 204 or 304,
// garbage after the body) leave the connection's state unknown, so it is
// closed. Bytes that arrive only once the connection is idle are seen by
// the next request on it, as a malformed response.
type HostClient struct {
	ClientConfig

	// Addr is the address to dial, "host:port". A missing port means 80,
	// or 443 with TLS.
	Addr string

	// TLS makes the client dial with TLS (https) using TLSConfig.
	TLS bool

	once    sync.Once
	lim     clientLimits
	parser  wire.Parser
	addr    string      // Addr with its port
	host    []byte      // Addr as given: the default Host field
	tlsConf *tls.Config // TLSConfig with ServerName set
	dialer  net.Dialer

	mu      sync.Mutex
	idle    []*clientConn // LIFO: the most recently used is reused first
	conns   int           // open or being dialled, idle or busy
	waiters []*waiter     // FIFO of requests waiting for a connection
	evict   *time.Timer   // closes idle connections past IdleConnTimeout
	armed   bool          // evict is scheduled
}

// waiter is a request waiting for a connection of a full pool. It
// receives a connection, or nil: a permission to dial (the slot counted in
// conns is then its).
type waiter struct {
	ch chan *clientConn
}

// Do sends req to Addr and reads the whole response into resp, within
// Timeout; see Client.Do.
func (hc *HostClient) Do(req *Request, resp *Response) error {
	return hc.doFollow(context.Background(), req, resp, time.Time{}, false)
}

// DoTimeout is Do with the timeout d instead of Timeout.
func (hc *HostClient) DoTimeout(req *Request, resp *Response, d time.Duration) error {
	return hc.doFollow(context.Background(), req, resp, time.Now().Add(d), true)
}

// DoDeadline is Do with the deadline t instead of Timeout.
func (hc *HostClient) DoDeadline(req *Request, resp *Response, t time.Time) error {
	return hc.doFollow(context.Background(), req, resp, t, true)
}

// DoContext is Do bounded by ctx; see Client.DoContext.
func (hc *HostClient) DoContext(ctx context.Context, req *Request, resp *Response) error {
	t, ok := ctx.Deadline()
	return hc.doFollow(ctx, req, resp, t, ok)
}

// DoStream sends req and returns the response body as a stream; see
// Client.DoStream.
func (hc *HostClient) DoStream(ctx context.Context, req *Request, resp *Response) (*BodyStream, error) {
	resp.resetReceived()
	t, err := hc.target(req)
	if err != nil {
		return nil, err
	}
	return hc.doStream(ctx, req, resp, &t)
}

// CloseIdleConnections closes the idle connections.
func (hc *HostClient) CloseIdleConnections() {
	hc.mu.Lock()
	idle := hc.idle
	hc.idle = nil
	hc.conns -= len(idle)
	hc.mu.Unlock()
	for _, cc := range idle {
		cc.close()
	}
}

// init resolves the configuration once.
func (hc *HostClient) init() {
	hc.lim = hc.resolve()
	hc.parser = wire.Parser{MaxHeaderBytes: hc.lim.maxHeader}
	port := "80"
	if hc.TLS {
		port = "443"
	}
	hc.addr = withPort(hc.Addr, port)
	hc.host = []byte(hc.Addr)
	if hc.TLS {
		hc.tlsConf = &tls.Config{}
		if hc.TLSConfig != nil {
			hc.tlsConf = hc.TLSConfig.Clone()
		}
		if hc.tlsConf.ServerName == "" {
			host, _, _ := net.SplitHostPort(hc.addr)
			hc.tlsConf.ServerName = host
		}
	}
}

// withPort returns addr with port appended when it has none.
func withPort(addr, port string) string {
	if strings.HasPrefix(addr, "[") && strings.HasSuffix(addr, "]") {
		return addr + ":" + port
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return net.JoinHostPort(addr, port)
	}
	return addr
}

// target returns the target of req sent through hc: its Host defaults to
// Addr, and an origin-form target has hc's scheme.
func (hc *HostClient) target(req *Request) (target, error) {
	hc.once.Do(hc.init)
	t, err := req.clientTarget(hc.host)
	if u := req.head.Target; len(u) == 0 || u[0] == '/' {
		t.https = hc.TLS
	}
	return t, err
}

// doFollow is Do with the redirects that stay on hc's origin.
func (hc *HostClient) doFollow(ctx context.Context, req *Request, resp *Response, deadline time.Time, explicit bool) error {
	hc.once.Do(hc.init)
	return follow(ctx, req, resp, deadline, explicit, hc.lim.maxRedirects, true, hc.route)
}

// route returns hc and the target of req sent through it.
func (hc *HostClient) route(req *Request) (*HostClient, target, error) {
	t, err := hc.target(req)
	return hc, t, err
}

// do runs one exchange and reads the whole response. explicit reports
// that deadline was given; otherwise Timeout applies.
func (hc *HostClient) do(ctx context.Context, req *Request, resp *Response, t *target, deadline time.Time, explicit bool) error {
	hc.once.Do(hc.init)
	now := time.Now()
	if !explicit && hc.lim.timeout > 0 {
		deadline = now.Add(hc.lim.timeout)
	}
	cc, stop, err := hc.roundTrip(ctx, req, resp, t, now, deadline, false)
	if err != nil {
		return err
	}
	canceled := stop != nil && !stop()
	hc.releaseAt(cc, cc.keep && !canceled, now)
	return nil
}

// doStream runs one exchange and returns the body as a stream.
func (hc *HostClient) doStream(ctx context.Context, req *Request, resp *Response, t *target) (*BodyStream, error) {
	hc.once.Do(hc.init)
	now := time.Now()
	ctxDeadline, _ := ctx.Deadline()
	deadline := ctxDeadline
	if deadline.IsZero() && hc.lim.timeout > 0 {
		deadline = now.Add(hc.lim.timeout)
	}
	cc, stop, err := hc.roundTrip(ctx, req, resp, t, now, deadline, true)
	if err != nil {
		return nil, err
	}
	s := &BodyStream{cc: cc, resp: resp, ctx: ctx, stop: stop}
	// The body is bounded by ctx only. Checking ctx after setting the
	// deadline catches a cancellation whose interrupt the set undid.
	if err := cc.setDeadline(ctxDeadline); err != nil || ctx.Err() != nil {
		s.finish(false)
		return nil, ctxError(ctx)
	}
	return s, nil
}

// roundTrip acquires a connection and runs one exchange on it, retrying
// an idempotent request whose reused connection was found closed: the
// retry dials, since the idle connections older than the one found closed
// are likely closed too. A request that would not be retried gets a
// reused connection only after it was probed (see idleUsable). On
// success the caller owns cc and must call stop (when not nil) and
// release cc. now is the time of the call.
func (hc *HostClient) roundTrip(ctx context.Context, req *Request, resp *Response, t *target, now, deadline time.Time, stream bool) (*clientConn, func() bool, error) {
	retried := idempotent(req.head.Method) && hc.lim.retries > 0
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			now = time.Now()
		}
		cc, err := hc.acquire(ctx, now, deadline, attempt > 0, !retried)
		if err != nil {
			if errors.Is(err, ErrTimeout) && isContextDeadline(ctx, deadline) && !errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("%w: %w", err, context.DeadlineExceeded)
			}
			return nil, nil, err
		}
		if err := cc.setDeadline(deadline); err != nil {
			hc.release(cc, false)
			return nil, nil, cc.ioError(err)
		}
		stop := cc.watch(ctx)
		err = cc.exchange(req, resp, t, stream)
		if err == nil {
			return cc, stop, nil
		}
		canceled := stop != nil && !stop()
		hc.release(cc, false)
		switch {
		case canceled || ctx.Err() != nil:
			return nil, nil, ctxError(ctx)
		case errors.Is(err, ErrTimeout) && isContextDeadline(ctx, deadline):
			return nil, nil, fmt.Errorf("%w: %w", err, context.DeadlineExceeded)
		case cc.retriable && attempt < hc.lim.retries && idempotent(req.head.Method):
			continue
		}
		return nil, nil, err
	}
}

// acquire returns a connection: an idle one (unless dial), a new one, or
// one that comes free before deadline. With probe, a connection that was
// idle is used only if idleUsable says so. now is the current time.
func (hc *HostClient) acquire(ctx context.Context, now, deadline time.Time, dial, probe bool) (*clientConn, error) {
	if !deadline.IsZero() && !now.Before(deadline) {
		return nil, wrapTimeout(os.ErrDeadlineExceeded)
	}
	hc.mu.Lock()
	for n := len(hc.idle); n > 0 && !dial; n = len(hc.idle) {
		cc := hc.idle[n-1]
		hc.idle[n-1] = nil
		hc.idle = hc.idle[:n-1]
		ok := hc.usable(cc, now)
		hc.mu.Unlock()
		if ok && (!probe || cc.idleUsable()) {
			return cc, nil
		}
		cc.close()
		hc.mu.Lock()
		hc.dropLocked()
	}
	if hc.lim.maxConns == 0 || hc.conns < hc.lim.maxConns {
		hc.conns++
		hc.mu.Unlock()
		return hc.dial(ctx, deadline)
	}
	w := &waiter{ch: make(chan *clientConn, 1)}
	hc.waiters = append(hc.waiters, w)
	hc.mu.Unlock()
	return hc.wait(ctx, deadline, w, probe)
}

// usable reports whether an idle connection may be reused at now.
func (hc *HostClient) usable(cc *clientConn, now time.Time) bool {
	l := &hc.lim
	return (l.idleTimeout == 0 || now.Sub(cc.lastUse) < l.idleTimeout) &&
		(l.lifetime == 0 || now.Sub(cc.created) < l.lifetime)
}

// wait waits for a connection or a permission to dial, until deadline or
// ctx is done. With probe, a connection received is used only if
// idleUsable says so; else it is closed and its slot dials.
func (hc *HostClient) wait(ctx context.Context, deadline time.Time, w *waiter, probe bool) (*clientConn, error) {
	var expired <-chan time.Time
	if !deadline.IsZero() {
		tm := time.NewTimer(time.Until(deadline))
		defer tm.Stop()
		expired = tm.C
	}
	var err error
	select {
	case cc := <-w.ch:
		if cc != nil && (!probe || cc.idleUsable()) {
			return cc, nil
		}
		if cc != nil {
			cc.close()
		}
		return hc.dial(ctx, deadline)
	case <-expired:
		err = wrapTimeout(errNoFreeConn)
	case <-ctx.Done():
		err = ctxError(ctx)
	}
	hc.mu.Lock()
	for i, x := range hc.waiters {
		if x == w {
			hc.waiters = append(hc.waiters[:i], hc.waiters[i+1:]...)
			hc.mu.Unlock()
			return nil, err
		}
	}
	hc.mu.Unlock()
	// Served while giving up: pass the connection or permission on.
	if cc := <-w.ch; cc != nil {
		hc.release(cc, true)
	} else {
		hc.mu.Lock()
		hc.dropLocked()
		hc.mu.Unlock()
	}
	return nil, err
}

// dial opens a connection in a slot already counted in conns.
func (hc *HostClient) dial(ctx context.Context, deadline time.Time) (*clientConn, error) {
	nc, err := hc.dialConn(ctx, deadline)
	if err != nil {
		hc.mu.Lock()
		hc.dropLocked()
		hc.mu.Unlock()
		return nil, err
	}
	return newClientConn(hc, nc), nil
}

// dialConn dials hc.addr, with TLS when asked, within the dial timeout
// and deadline.
func (hc *HostClient) dialConn(ctx context.Context, deadline time.Time) (net.Conn, error) {
	if d := hc.lim.dialTimeout; d > 0 {
		if t := time.Now().Add(d); deadline.IsZero() || t.Before(deadline) {
			deadline = t
		}
	}
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	dial := hc.Dial
	if dial == nil {
		dial = hc.dialer.DialContext
	}
	nc, err := dial(ctx, "tcp", hc.addr)
	if err != nil {
		return nil, dialError(err)
	}
	if err := hc.writeProxyHeader(nc); err != nil {
		nc.Close()
		return nil, dialError(err)
	}
	if !hc.TLS {
		return nc, nil
	}
	tc := tls.Client(nc, hc.tlsConf)
	if err := tc.HandshakeContext(ctx); err != nil {
		nc.Close()
		return nil, dialError(err)
	}
	return tc, nil
}

// release returns cc to the pool when reusable (to a waiter first), or
// closes it.
func (hc *HostClient) release(cc *clientConn, reusable bool) {
	hc.releaseAt(cc, reusable, time.Now())
}

// releaseAt is release with the time the connection's idle time counts
// from: Do passes the start of its exchange, saving a clock read (costly
// on some virtual machines), so IdleConnTimeout may close a connection
// early by the duration of its last Do.
func (hc *HostClient) releaseAt(cc *clientConn, reusable bool, now time.Time) {
	if !reusable || hc.lim.lifetime > 0 && now.Sub(cc.created) >= hc.lim.lifetime {
		cc.close()
		hc.mu.Lock()
		hc.dropLocked()
		hc.mu.Unlock()
		return
	}
	cc.lastUse = now
	hc.mu.Lock()
	if len(hc.waiters) > 0 {
		hc.handOffLocked(cc)
	} else {
		hc.idle = append(hc.idle, cc)
		hc.armLocked()
	}
	hc.mu.Unlock()
}

// dropLocked forgets a closed connection (or an unused dial slot), and
// lets the first waiter dial in its place.
func (hc *HostClient) dropLocked() {
	if len(hc.waiters) > 0 {
		hc.handOffLocked(nil) // the slot passes to the waiter
		return
	}
	hc.conns--
}

// handOffLocked gives cc (nil: a dial slot) to the first waiter.
func (hc *HostClient) handOffLocked(cc *clientConn) {
	w := hc.waiters[0]
	copy(hc.waiters, hc.waiters[1:])
	hc.waiters[len(hc.waiters)-1] = nil
	hc.waiters = hc.waiters[:len(hc.waiters)-1]
	w.ch <- cc // buffered: never blocks
}

// armLocked schedules the eviction of idle connections.
func (hc *HostClient) armLocked() {
	d := hc.lim.idleTimeout
	if hc.armed || d == 0 {
		return
	}
	hc.armed = true
	if hc.evict == nil {
		hc.evict = time.AfterFunc(d, hc.evictIdle)
	} else {
		hc.evict.Reset(d)
	}
}

// evictIdle closes the connections idle for IdleConnTimeout and schedules
// itself again while idle connections remain. The oldest are at the
// bottom of the LIFO.
func (hc *HostClient) evictIdle() {
	d := hc.lim.idleTimeout
	now := time.Now()
	hc.mu.Lock()
	n := 0
	for n < len(hc.idle) && now.Sub(hc.idle[n].lastUse) >= d {
		n++
	}
	stale := make([]*clientConn, n)
	copy(stale, hc.idle)
	hc.idle = append(hc.idle[:0], hc.idle[n:]...)
	for range n {
		hc.dropLocked()
	}
	hc.armed = len(hc.idle) > 0
	if hc.armed {
		hc.evict.Reset(hc.idle[0].lastUse.Add(d).Sub(now))
	}
	hc.mu.Unlock()
	for _, cc := range stale {
		cc.close()
	}
}

// isContextDeadline reports whether deadline is ctx's: the connection's
// deadline then expires with the context's, a moment before ctx.Err says
// so.
func isContextDeadline(ctx context.Context, deadline time.Time) bool {
	t, ok := ctx.Deadline()
	return ok && t.Equal(deadline)
}
