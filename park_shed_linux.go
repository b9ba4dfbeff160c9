//go:build linux

package brisk

import "net"

// A connection parked through a whole sweep gives its conn (about 2 KB,
// mostly the Ctx) back to the pool and keeps only connIdle in its slot;
// when it turns readable, a conn from the pool takes it up again. A
// connection that is busy resumes before the next sweep and keeps its
// conn: shedding costs the hot path nothing.
//
// connIdle must hold every conn field whose value outlives a request.
// TestConnIdleCarriesState lists each field of conn as carried here or as
// reset between requests, so that a new field must be placed.

// connIdle is what a keep-alive connection carries from one request to
// the next while it waits with nothing buffered, no buffers, no read
// deadline and no error (see park).
type connIdle struct {
	nc        net.Conn
	nreq      int
	wdeadline int64
	writes    int
	wclock    writeClock
	proxy     *ProxyHeader // the connection's PROXY header
	connStats              // the hooks' counts run across requests
}

// idleState returns what c carries to its next request.
func (c *conn) idleState() connIdle {
	return connIdle{nc: c.nc, nreq: c.nreq, wdeadline: c.wdeadline, writes: c.writes, wclock: c.wclock,
		proxy: c.proxy, connStats: c.connStats}
}

// recycle gives c, shed while parked, back to its server's pool. The
// connection stays open and counted in s.active; it leaves s.conns, which
// holds conns, until conn takes it up again (closeParked reaches it
// meanwhile).
func (c *conn) recycle() {
	s := c.srv
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	c.ctx.Request.resetReceived()
	c.ctx.Response.Reset()
	c.ctx.ctx = nil
	c.nc, c.raw, c.tls = nil, nil, nil
	c.proxyStore = nil // c.proxy, if any, stays with the idle state
	s.pools.putConn(c)
}

// conn returns the conn of the connection in sl, taking one from the pool
// and restoring its state when sl was shed.
func (sl *parkSlot) conn() *conn {
	if sl.c != nil {
		return sl.c
	}
	s := sl.srv
	c := s.pools.getConn(s)
	c.attach(sl.idle.nc)
	c.nreq, c.wdeadline, c.writes, c.wclock = sl.idle.nreq, sl.idle.wdeadline, sl.idle.writes, sl.idle.wclock
	c.proxy, c.connStats = sl.idle.proxy, sl.idle.connStats
	s.mu.Lock()
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	return c
}
