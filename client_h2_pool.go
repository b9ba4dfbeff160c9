package brisk

import (
	"context"
	"crypto/tls"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The HTTP/2 connections of a HostClient (ClientConfig.HTTP2): one per
// origin, multiplexed, another dialled only once it takes no new streams;
// dials offer "h2" and "http/1.1", and a connection on which the server
// chose HTTP/1.1 joins the HTTP/1.1 pool.

// h2Pool holds a HostClient's HTTP/2 connections. It is created by
// HostClient.init when HTTP2 is set and the origin is "https".
type h2Pool struct {
	tr      HTTP2Transport
	conf    HTTP2ConnConfig
	tlsConf *tls.Config // offers "h2" (see h2TLSConfig)
	accept  []string    // the Accept-Encoding the client adds, as a field value; read-only
	decs    sync.Pool   // of *h2Decoders (client_h2_response.go)

	host atomic.Pointer[string] // the last Host sent as a string (hostString)

	mu      sync.Mutex
	conns   []*h2Conn // open, taking new streams as far as known; newest last
	dialing *h2Dial   // the dial in progress, nil: none
	http1   bool      // the last dial: the server chose HTTP/1.1
}

// h2Conn is one HTTP/2 connection of an h2Pool.
type h2Conn struct {
	cc      HTTP2Conn
	tls     *tls.ConnectionState
	created time.Time

	// guarded by h2Pool.mu
	active  int  // streams reserved and not yet released
	streams int  // streams started
	retired bool // taken out of the pool: closed once active is 0
}

// h2Dial is a dial in progress, which the origin's other requests wait
// for rather than dial their own.
type h2Dial struct {
	done     chan struct{} // closed when the dial ended
	err      error         // its error, read after done
	canceled bool          // it failed because its request's context ended
}

// newH2Pool returns the pool of hc, whose configuration is resolved.
func newH2Pool(hc *HostClient) *h2Pool {
	p := &h2Pool{
		tr:      hc.HTTP2,
		conf:    hc.h2Config(),
		tlsConf: h2TLSConfig(hc.TLSConfig, hc.tlsConf),
		accept:  []string{string(hc.acceptEnc)},
	}
	return p
}

// h2TLSConfig returns the configuration of the dials that offer HTTP/2:
// base (the HTTP/1.1 one, from clientTLSConfig) with "h2" offered first,
// followed by "http/1.1" when user's NextProtos is empty, else by the
// HTTP/1.x protocols it lists; a NextProtos without "h2" offers no "h2".
func h2TLSConfig(user, base *tls.Config) *tls.Config {
	c := base.Clone()
	switch {
	case user == nil || len(user.NextProtos) == 0:
		c.NextProtos = []string{"h2", "http/1.1"}
	case slices.Contains(user.NextProtos, "h2"):
		c.NextProtos = append([]string{"h2"}, base.NextProtos...)
	}
	return c
}

// acquire returns a connection with a stream reserved, dialling one when
// none takes new streams, and whether it carried a stream before. It
// reports http1 when the origin chose HTTP/1.1 and hc has HTTP/1.1
// connections: the request then goes over HTTP/1.1. A dial in progress
// is waited for, within ctx.
func (p *h2Pool) acquire(hc *HostClient, ctx context.Context, deadline time.Time) (c *h2Conn, reused, http1 bool, err error) {
	for {
		p.mu.Lock()
		c, stale := p.reserveLocked(hc.lim.lifetime)
		if c != nil {
			reused := c.streams > 1
			p.mu.Unlock()
			closeH2(stale)
			return c, reused, false, nil
		}
		if p.http1 && hc.openConns() > 0 {
			p.mu.Unlock()
			closeH2(stale)
			return nil, false, true, nil
		}
		if d := p.dialing; d != nil {
			p.mu.Unlock()
			closeH2(stale)
			select {
			case <-d.done:
				if d.err != nil && !d.canceled {
					return nil, false, false, d.err
				}
				continue
			case <-ctx.Done():
				return nil, false, false, ctx.Err()
			}
		}
		d := &h2Dial{done: make(chan struct{})}
		p.dialing = d
		p.mu.Unlock()
		closeH2(stale)
		nc, h1, err := p.dial(hc, ctx, deadline)
		p.mu.Lock()
		p.dialing = nil
		d.err, d.canceled = err, ctx.Err() != nil
		if err == nil {
			p.http1 = h1
			if !h1 {
				p.conns = append(p.conns, nc)
			}
		}
		p.mu.Unlock()
		close(d.done)
		if err != nil {
			return nil, false, false, err
		}
	}
}

// reserveLocked reserves a stream on the newest connection that takes
// one, and returns the connections found unusable (no longer pooled;
// those without active streams are to be closed).
func (p *h2Pool) reserveLocked(lifetime time.Duration) (*h2Conn, []*h2Conn) {
	var stale []*h2Conn
	for i := len(p.conns) - 1; i >= 0; i-- {
		c := p.conns[i]
		if (lifetime == 0 || time.Since(c.created) < lifetime) && c.cc.ReserveNewRequest() {
			c.active++
			c.streams++
			return c, stale
		}
		c.retired = true
		p.conns = slices.Delete(p.conns, i, i+1)
		if c.active == 0 {
			stale = append(stale, c)
		}
	}
	return nil, stale
}

// closeH2 closes connections taken out of the pool.
func closeH2(conns []*h2Conn) {
	for _, c := range conns {
		c.cc.Close()
	}
}

// dial opens a connection offering "h2". When the server chooses another
// protocol the connection joins hc's HTTP/1.1 pool and dial reports
// http1.
func (p *h2Pool) dial(hc *HostClient, ctx context.Context, deadline time.Time) (*h2Conn, bool, error) {
	nc, err := hc.dialConnWith(ctx, deadline, p.tlsConf)
	if err != nil {
		return nil, false, err
	}
	tc, ok := nc.(*tls.Conn)
	if !ok {
		nc.Close()
		return nil, false, ErrInvalidRequest // not reached: hc dials TLS
	}
	st := tc.ConnectionState()
	if st.NegotiatedProtocol != "h2" {
		hc.adoptHTTP1(nc)
		return nil, true, nil
	}
	cc, err := p.tr.NewClientConn(nc, p.conf)
	if err != nil {
		return nil, false, dialError(err)
	}
	return &h2Conn{cc: cc, tls: &st, created: time.Now()}, false, nil
}

// release ends a stream of c; a retired connection is closed after its
// last one.
func (p *h2Pool) release(c *h2Conn) {
	p.mu.Lock()
	c.active--
	last := c.retired && c.active == 0
	p.mu.Unlock()
	if last {
		c.cc.Close()
	}
}

// closeIdle closes the connections without active streams.
func (p *h2Pool) closeIdle() {
	p.mu.Lock()
	var idle []*h2Conn
	for i := len(p.conns) - 1; i >= 0; i-- {
		if c := p.conns[i]; c.active == 0 {
			c.retired = true
			idle = append(idle, c)
			p.conns = slices.Delete(p.conns, i, i+1)
		}
	}
	p.mu.Unlock()
	closeH2(idle)
}

// openConns returns the number of hc's HTTP/1.1 connections, idle or
// busy.
func (hc *HostClient) openConns() int {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	return hc.conns
}

// adoptHTTP1 adds nc, a connection on which the server chose HTTP/1.1,
// to hc's HTTP/1.1 pool as an idle connection, or closes it when the
// pool is full (MaxConnsPerHost).
func (hc *HostClient) adoptHTTP1(nc net.Conn) {
	hc.mu.Lock()
	if hc.lim.maxConns > 0 && hc.conns >= hc.lim.maxConns {
		hc.mu.Unlock()
		nc.Close()
		return
	}
	hc.conns++
	hc.mu.Unlock()
	hc.release(newClientConn(hc, nc), true)
}

// hostString returns host as a string: the one of the last call when it
// is the same (an origin's requests usually share their Host), so that
// the conversion does not allocate each time.
func (p *h2Pool) hostString(host []byte) string {
	if last := p.host.Load(); last != nil && *last == string(host) {
		return *last
	}
	h := string(host)
	p.host.Store(&h)
	return h
}
