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
// closed. Bytes that arrive once the connection is idle make it unusable:
// it is closed before a request would be sent on it (see
// MaxIdempotentRetries for when this is checked).
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
	tlsConf *tls.Config // clientTLSConfig of TLSConfig
	dialer  net.Dialer

	decoders  []ContentDecoder // nil: none (client_decompress.go)
	acceptEnc []byte           // the Accept-Encoding the client adds

	h2 *h2Pool // with HTTP2 and TLS: the HTTP/2 connections (client_h2_pool.go)

	proxy    *proxyRoute // nil: direct (client_proxy.go)
	proxyErr error       // why the proxy is not usable
	proxySet bool        // proxy was chosen by Client, not from Proxy

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
// Timeout; see Client.Do. Only redirects to Addr's origin are followed.
func (hc *HostClient) Do(req *Request, resp *Response) error {
	return hc.do(exchange{ctx: context.Background(), req: req, resp: resp})
}

// DoTimeout is Do with the timeout d instead of Timeout.
func (hc *HostClient) DoTimeout(req *Request, resp *Response, d time.Duration) error {
	return hc.do(exchange{ctx: context.Background(), req: req, resp: resp, deadline: time.Now().Add(d), explicit: true})
}

// DoDeadline is Do with the deadline t instead of Timeout.
func (hc *HostClient) DoDeadline(req *Request, resp *Response, t time.Time) error {
	return hc.do(exchange{ctx: context.Background(), req: req, resp: resp, deadline: t, explicit: true})
}

// DoContext is Do bounded by ctx; see Client.DoContext.
func (hc *HostClient) DoContext(ctx context.Context, req *Request, resp *Response) error {
	return hc.do(ctxExchange(ctx, req, resp))
}

// DoStream sends req and returns the response body as a stream; see
// Client.DoStream.
func (hc *HostClient) DoStream(ctx context.Context, req *Request, resp *Response) (*BodyStream, error) {
	x := ctxExchange(ctx, req, resp)
	x.stream, x.host = true, hc
	return x.run()
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
	if hc.h2 != nil {
		hc.h2.closeIdle()
	}
}

// init resolves the configuration once.
func (hc *HostClient) init() {
	hc.lim = hc.resolve()
	hc.parser = wire.Parser{MaxHeaderBytes: hc.lim.maxHeader, AllowObsFold: true}
	port := "80"
	if hc.TLS {
		port = "443"
	}
	hc.addr = withPort(hc.Addr, port)
	hc.host = []byte(hc.Addr)
	if hc.decoders = hc.ClientConfig.decoders(); len(hc.decoders) > 0 {
		hc.acceptEnc = acceptEncoding(hc.decoders)
	}
	if !hc.proxySet && hc.Proxy != nil {
		hc.proxy, hc.proxyErr = proxyFor(hc.Proxy, hc.TLS, hc.addr)
	}
	if hc.TLS {
		hc.tlsConf = clientTLSConfig(hc.TLSConfig, hc.addr)
		if hc.HTTP2 != nil {
			hc.h2 = newH2Pool(hc)
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

// do runs x, following the redirects that stay on hc's origin.
func (hc *HostClient) do(x exchange) error {
	hc.once.Do(hc.init)
	x.host, x.maxRedirects = hc, hc.lim.maxRedirects
	_, err := x.run()
	return err
}

// send runs one exchange of x to target t: it reads the whole response,
// or, for a stream, the head and returns the body as a BodyStream.
func (hc *HostClient) send(x *exchange, t *target) (*BodyStream, error) {
	hc.once.Do(hc.init)
	if hc.proxy != nil && hc.proxy.forward {
		t.forward = hc.proxy
	}
	t.acceptEncoding = hc.acceptEnc
	if hc.h2 != nil {
		if s, ok, err := hc.sendH2(x, t); ok {
			return s, err
		}
	}
	now := time.Now()
	cc, stop, err := hc.roundTrip(x, t, now, x.deadlineAt(now, hc.lim.timeout))
	if err != nil {
		return nil, err
	}
	if !x.stream {
		canceled := stop != nil && !stop()
		hc.releaseAt(cc, cc.keep && !canceled, now)
		return nil, nil
	}
	s := x.into
	if s == nil {
		s = new(BodyStream)
	}
	*s = BodyStream{cc: cc, resp: x.resp, ctx: x.ctx, stop: stop}
	// The body is bounded by ctx only; one already read whole needs no
	// deadline, and keeping the exchange's lets the next exchange on cc,
	// which sets the same (rounded) one, skip setting it. Checking ctx
	// after setting the deadline catches a cancellation whose interrupt
	// the set undid.
	if !cc.bodyBuffered() {
		ctxDeadline, _ := x.ctx.Deadline()
		err = cc.setDeadline(ctxDeadline)
	}
	if err != nil || x.ctx.Err() != nil {
		s.finish(false)
		return nil, ctxError(x.ctx)
	}
	if cc.decode {
		if err := s.decodeWith(hc.decoders); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// roundTrip acquires a connection and runs one exchange of x on it
// within deadline, retrying an idempotent request whose reused connection
// was found closed (exchange.retries): the retry dials, since the idle
// connections older than the one found closed are likely closed too. On
// success the caller owns cc and must call stop (when not nil) and
// release cc. now is the time of the call.
func (hc *HostClient) roundTrip(x *exchange, t *target, now, deadline time.Time) (*clientConn, func() bool, error) {
	ctx, retries := x.ctx, x.retries(hc)
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			now = time.Now()
		}
		cc, err := hc.acquire(ctx, now, deadline, attempt > 0, retries > 0)
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
		err = cc.run(x, t)
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
		case cc.retriable && attempt < retries && x.req.stream.resendable():
			continue
		}
		return nil, nil, err
	}
}

// acquire returns a connection: an idle one (unless dial), a new one, or
// one that comes free before deadline. A connection that was idle is used
// only if readyForReuse says so; retried tells it whether the request is
// retried on a closed connection. now is the current time.
func (hc *HostClient) acquire(ctx context.Context, now, deadline time.Time, dial, retried bool) (*clientConn, error) {
	if !deadline.IsZero() && !now.Before(deadline) {
		return nil, wrapTimeout(os.ErrDeadlineExceeded)
	}
	hc.mu.Lock()
	for n := len(hc.idle); n > 0 && !dial; n = len(hc.idle) {
		cc := hc.idle[n-1]
		hc.idle[n-1] = nil
		hc.idle = hc.idle[:n-1]
		idle := now.Sub(cc.lastUse)
		ok := hc.usable(cc, now, idle)
		hc.mu.Unlock()
		if ok && cc.readyForReuse(idle, retried) {
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
	return hc.wait(ctx, deadline, w, retried)
}

// usable reports whether an idle connection may be reused at now, idle
// being now minus its lastUse.
func (hc *HostClient) usable(cc *clientConn, now time.Time, idle time.Duration) bool {
	l := &hc.lim
	return (l.idleTimeout == 0 || idle < l.idleTimeout) &&
		(l.lifetime == 0 || now.Sub(cc.created) < l.lifetime)
}

// wait waits for a connection or a permission to dial, until deadline or
// ctx is done. A connection received is used only if readyForReuse says so;
// else it is closed and its slot dials.
func (hc *HostClient) wait(ctx context.Context, deadline time.Time, w *waiter, retried bool) (*clientConn, error) {
	var expired <-chan time.Time
	if !deadline.IsZero() {
		tm := time.NewTimer(time.Until(deadline))
		defer tm.Stop()
		expired = tm.C
	}
	var err error
	select {
	case cc := <-w.ch:
		if cc != nil && cc.readyForReuse(time.Since(cc.lastUse), retried) {
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
	nc, err := hc.dialConnWith(ctx, deadline, hc.tlsConf)
	if err != nil {
		hc.mu.Lock()
		hc.dropLocked()
		hc.mu.Unlock()
		return nil, err
	}
	return newClientConn(hc, nc), nil
}

// dialConnWith dials hc.addr, with TLS when asked (configured by
// tlsConf), within the dial timeout and deadline.
func (hc *HostClient) dialConnWith(ctx context.Context, deadline time.Time, tlsConf *tls.Config) (net.Conn, error) {
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
	var nc net.Conn
	var err error
	switch {
	case hc.proxyErr != nil:
		return nil, hc.proxyErr
	case hc.proxy != nil:
		if nc, err = hc.proxy.dial(ctx, dial, hc.addr); err != nil {
			return nil, err
		}
	default:
		if nc, err = dial(ctx, "tcp", hc.addr); err != nil {
			return nil, dialError(err)
		}
	}
	if err := hc.writeProxyHeader(nc); err != nil {
		nc.Close()
		return nil, dialError(err)
	}
	if !hc.TLS {
		return nc, nil
	}
	tc := tls.Client(nc, tlsConf)
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
