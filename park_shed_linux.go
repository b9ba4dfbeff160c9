//go:build linux

package brisk

import (
	"net"
	"os"
	"sync/atomic"
	"syscall"

	"github.com/brisk-http/brisk/proxyproto"
	"golang.org/x/sys/unix"
)

// A connection parked through a whole sweep gives its conn (about 2 KB,
// mostly the Ctx) back to the pool and keeps only connIdle in its slot;
// when it turns readable, a conn from the pool takes it up again. A
// connection that is busy resumes before the next sweep and keeps its
// conn: shedding costs the hot path nothing.
//
// Unless Server.ConnState is set (it names a connection by its net.Conn,
// which must then stay the same), a shed connection then gives up its
// net.Conn too (detach): the slot keeps a duplicate of its fd, armed in
// the parker in place of the original, and the net.Conn is closed, which
// frees the runtime's netFD, pollDesc and addresses (about 0.5 KB). On
// wake, net.FileConn makes a new net.Conn of the fd (reattach), and the
// TCP options FileConn sets (TCP_NODELAY, keep-alive) are put back as
// they were. Detaching costs eleven system calls (the dup, epoll_ctl ADD
// and DEL, five getsockopt, the runtime's epoll_ctl DEL, close, fcntl)
// once per connection idle through a sweep; reattaching fifteen
// (epoll_ctl DEL, four fcntl with the dup, getsockopt, getsockname,
// getpeername, the runtime's epoll_ctl ADD, FileConn's five setsockopt,
// close; counted with strace), and one epoll_ctl more at its next park. Together about 11 µs
// (BenchmarkParkReattach), paid per wake of a connection idle for 2 to 3 s
// or more: 10,000 connections each waking every 5 s would spend about 2 %
// of a core on it.
//
// connIdle must hold every conn field whose value outlives a request.
// TestConnIdleCarriesState lists each field of conn as carried here or as
// reset between requests, so that a new field must be placed.

// connIdle is what a keep-alive connection carries from one request to
// the next while it waits with nothing buffered, no buffers, no read
// deadline and no error (see park).
type connIdle struct {
	nc        net.Conn // nil when detached
	wdeadline int64    // the write deadline set on nc; none once detached
	proxy     *proxyproto.Header
	nreq      int
	writes    int
	// the hooks' counts that run across requests (connStats)
	nread, nwritten, readMark int64
	reported                  ConnState
	pipelined                 bool     // its waits peek (server_await.go)
	fd                        int32    // the detached connection's fd
	opts                      sockOpts // what reattach puts back
}

// sockOpts are the options of a detached TCP connection that
// net.FileConn resets on reattach.
type sockOpts struct {
	tcp       bool
	noDelay   bool
	keepAlive bool
	keepCnt   uint8
	keepIdle  int32 // seconds
	keepIntvl int32 // seconds
}

// idleState returns what c carries to its next request.
func (c *conn) idleState() connIdle {
	return connIdle{nc: c.nc, wdeadline: c.wdeadline, proxy: c.proxy, nreq: c.nreq, writes: c.writes,
		nread: c.nread, nwritten: c.nwritten, readMark: c.readMark, reported: c.reported,
		pipelined: c.pipelined, fd: -1}
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
// and restoring its state when sl was shed; nil when a detached
// connection cannot be taken up again (it is then closed).
func (sl *parkSlot) conn(p *parker) *conn {
	if sl.c != nil {
		return sl.c
	}
	s, in := sl.srv, &sl.idle
	nc := in.nc
	if nc == nil {
		var err error
		if nc, err = p.reattach(in); err != nil {
			s.connDone(nil)
			return nil
		}
	}
	c := s.pools.getConn(s)
	c.attach(nc)
	c.wdeadline, c.proxy, c.nreq, c.writes = in.wdeadline, in.proxy, in.nreq, in.writes
	c.nread, c.nwritten, c.readMark, c.reported = in.nread, in.nwritten, in.readMark, in.reported
	c.pipelined = in.pipelined
	s.mu.Lock()
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	return c
}

// finish closes the connection in sl, which the caller took out of the
// parker.
func (sl *parkSlot) finish(p *parker) {
	if sl.c == nil && sl.idle.nc == nil {
		unix.Close(int(sl.idle.fd)) // its last fd: the kernel drops its epoll entry
		sl.srv.connDone(nil)
		return
	}
	if c := sl.conn(p); c != nil {
		c.finish()
	}
}

// detach replaces the net.Conn of the shed connection in slot i by a
// duplicate of its fd, armed in p in place of the original, under p.mu.
// On any failure the slot keeps its net.Conn.
func (p *parker) detach(i uint32) {
	sl := &p.slots[i]
	sc, ok := sl.idle.nc.(syscall.Conn)
	if !ok || sl.srv.ConnState != nil {
		return
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return
	}
	ev := unix.EpollEvent{Events: parkArmEvents, Fd: int32(i), Pad: int32(sl.gen)}
	fd := -1
	rc.Control(func(old uintptr) {
		dup, err := unix.FcntlInt(old, unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			return
		}
		if unix.EpollCtl(p.epfd, unix.EPOLL_CTL_ADD, dup, &ev) != nil {
			unix.Close(dup)
			return
		}
		unix.EpollCtl(p.epfd, unix.EPOLL_CTL_DEL, int(old), nil)
		fd = dup
	})
	if fd < 0 {
		return
	}
	if _, ok := sl.idle.nc.(*net.TCPConn); ok {
		sl.idle.opts = readSockOpts(fd)
	}
	sl.idle.nc.Close()
	unix.SetNonblock(fd, false) // so that os.NewFile in reattach leaves the runtime poller alone
	sl.idle.nc, sl.idle.wdeadline, sl.idle.fd = nil, 0, int32(fd)
}

// reattach makes a net.Conn of the detached connection in, taken out of
// p, and releases in.fd. On error the connection is closed.
func (p *parker) reattach(in *connIdle) (net.Conn, error) {
	fd := int(in.fd)
	unix.EpollCtl(p.epfd, unix.EPOLL_CTL_DEL, fd, nil)
	f := os.NewFile(uintptr(fd), "")
	nc, err := net.FileConn(f) // a duplicate, nonblocking, in the runtime poller
	f.Close()
	if err == nil && nc.RemoteAddr() == nil {
		err = unix.ENOTCONN // reset meanwhile: getpeername failed
	}
	if err == nil && in.opts.tcp {
		err = restoreSockOpts(nc, in.opts)
	}
	if err != nil && nc != nil {
		nc.Close()
	}
	return nc, err
}

// readSockOpts reads the options of TCP socket fd that net.FileConn sets.
func readSockOpts(fd int) sockOpts {
	get := func(level, opt int) int {
		v, _ := unix.GetsockoptInt(fd, level, opt)
		return v
	}
	return sockOpts{tcp: true, noDelay: get(unix.IPPROTO_TCP, unix.TCP_NODELAY) != 0,
		keepAlive: get(unix.SOL_SOCKET, unix.SO_KEEPALIVE) != 0,
		keepIdle:  int32(get(unix.IPPROTO_TCP, unix.TCP_KEEPIDLE)),
		keepIntvl: int32(get(unix.IPPROTO_TCP, unix.TCP_KEEPINTVL)),
		keepCnt:   uint8(get(unix.IPPROTO_TCP, unix.TCP_KEEPCNT))}
}

// fileConnOpts holds the options net.FileConn gives a TCP connection,
// read back after the process's first reattach: they depend on the Go
// release only.
var fileConnOpts atomic.Pointer[sockOpts]

// restoreSockOpts sets on nc those of o that net.FileConn changed.
func restoreSockOpts(nc net.Conn, o sockOpts) error {
	rc, err := nc.(syscall.Conn).SyscallConn()
	if err != nil {
		return err
	}
	cerr := rc.Control(func(fd uintptr) {
		now := fileConnOpts.Load()
		if now == nil {
			got := readSockOpts(int(fd))
			now = &got
			fileConnOpts.Store(now)
		}
		set := func(level, opt, want, have int) {
			if want != have && err == nil {
				err = unix.SetsockoptInt(int(fd), level, opt, want)
			}
		}
		set(unix.IPPROTO_TCP, unix.TCP_NODELAY, b2i(o.noDelay), b2i(now.noDelay))
		set(unix.SOL_SOCKET, unix.SO_KEEPALIVE, b2i(o.keepAlive), b2i(now.keepAlive))
		set(unix.IPPROTO_TCP, unix.TCP_KEEPIDLE, int(o.keepIdle), int(now.keepIdle))
		set(unix.IPPROTO_TCP, unix.TCP_KEEPINTVL, int(o.keepIntvl), int(now.keepIntvl))
		set(unix.IPPROTO_TCP, unix.TCP_KEEPCNT, int(o.keepCnt), int(now.keepCnt))
	})
	if cerr != nil {
		return cerr
	}
	return err
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
