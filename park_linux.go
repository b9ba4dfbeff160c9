//go:build linux

package brisk

import (
	"errors"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// Parking (on unless Server.NoParkIdle): a connection that has waited
// ParkIdleAfter in its goroutine for its next (or first) request, with
// nothing buffered, leaves its goroutine. Its fd is armed, one-shot, in the
// process's parker, an epoll set; its conn (without buffers or deadline)
// sits in the parker's slot table, and after a whole sweep only its
// connIdle does, with a duplicate of its fd in place of its net.Conn
// (park_shed_linux.go). When the fd turns readable a worker
// goroutine reads and serves exactly as the connection's own goroutine
// would have (resume).
//
// One-shot rather than edge-triggered: the event carries the slot and its
// generation, set anew by each EPOLL_CTL_MOD, and a connection that is
// being served is never reported to the parker; the price, one epoll_ctl
// per park (about 0.6 µs, BenchmarkParkArm), is paid only by connections
// idle for ParkIdleAfter. Edge-triggered, registered once, would save that
// call but report every arrival of data on a connection parked once, busy
// or not, each a wake of the parker's loop to drop it (not built: a
// runtime poller wake and an epoll_wait cost more than the call saved).
//
// The fd is the runtime's own, not a duplicate (as nbio makes): it stays
// registered with the Go poller too. The two do not clash because nobody
// waits on the runtime's side while the conn is parked (no goroutine reads
// it), and because the parker touches the fd only inside RawConn.Control,
// which holds the runtime's reference on it: the fd cannot be closed and
// its number reused for another connection during an epoll_ctl. An event
// that arrives after its connection left the parker is recognised by the
// slot's generation and dropped (TestParkFDReuse). The epoll set itself
// is waited on through the runtime poller (an epoll fd is pollable), so
// the parker holds no thread blocked in epoll_wait.
//
// Timeouts of parked connections are swept once per parkSweep, without a
// timer per connection: the idle timeout, computed from the coarse clock
// as awaitRequest does, fires up to two seconds late, never early (which
// is why a connection is parked only when its idle timeout is coarse, or
// none). ReadHeaderTimeout starts, as always, once a head's first bytes
// were read, by then in a goroutine again. Shutdown closes parked
// connections at once (closeParked).

// parkSweep is the period of the sweep over parked connections (a
// variable for the tests: BRISK_TEST_PARK=detach shortens it).
var parkSweep = time.Second

// parkEvents is the number of events taken per epoll_wait.
const parkEvents = 256

// parkArmEvents are the events a parked fd is armed for, once.
const parkArmEvents = unix.EPOLLIN | unix.EPOLLRDHUP | unix.EPOLLONESHOT

// parker is the process's epoll set of parked connections and the table
// of their conns.
type parker struct {
	epfd   int
	file   *os.File // epfd, for the runtime poller
	events []unix.EpollEvent
	work   chan *conn // to idle workers (worker)

	mu    sync.Mutex
	slots []parkSlot
	free  []uint32 // indexes of empty slots
	ready []readyConn
	ctl   func(fd uintptr) // p.epollCtl, bound once
	armEv unix.EpollEvent  // what ctl arms, under mu
	first bool             // ctl adds the fd (not yet in the set), under mu
	peek  [1]byte          // ctl's peek, under mu
	err   error            // ctl's result

	nextSweep time.Time // loop goroutine only
}

// parkSlot holds a parked connection: its conn, or, once it was parked
// through a whole sweep, only what the connection carries from one
// request to the next (shed). gen changes each time the slot is emptied,
// so that a late event for its former connection is dropped.
type parkSlot struct {
	srv      *Server // nil: the slot is empty
	c        *conn   // nil when shed
	idle     connIdle
	deadline int64 // idle deadline, Unix ns; 0: none
	gen      uint32
	old      bool // parked when the last sweep ran
}

// readyConn is a connection taken out of the parker, with the epoll events
// that took it out.
type readyConn struct {
	sl     parkSlot
	events uint32
}

// theParker is the process's parker: one epoll set for every Server, as
// the runtime has one poller.
var theParker struct {
	once sync.Once
	p    atomic.Pointer[parker] // nil until started, or when it could not start
}

// getParker returns the process's parker, starting it on first use; nil
// when it cannot start (no parking then).
func getParker() *parker {
	theParker.once.Do(func() { theParker.p.Store(newParker()) })
	return theParker.p.Load()
}

// newParker creates the epoll set and starts its loop, or returns nil.
func newParker() *parker {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil
	}
	if err := unix.SetNonblock(epfd, true); err != nil {
		unix.Close(epfd)
		return nil
	}
	p := &parker{epfd: epfd, file: os.NewFile(uintptr(epfd), "brisk-parker"),
		events: make([]unix.EpollEvent, parkEvents), work: make(chan *conn)}
	p.ctl = p.epollCtl
	rc, err := p.file.SyscallConn()
	if err != nil {
		p.file.Close()
		return nil
	}
	go p.loop(rc)
	return p
}

// mayPark reports whether c may leave its goroutine while it waits: only
// plain TCP and Unix connections (no TLS or wrapper that could hold input
// of its own) whose idle timeout is coarse. The client-close watch ended
// with the handler (conn.runHandler), so an idle connection has none.
func (c *conn) mayPark() bool {
	s := c.srv
	if s.NoParkIdle || c.raw == nil || s.draining.Load() {
		return false
	}
	if d := c.lim.idleTimeout; d > 0 && d < coarseTimeout {
		return false
	}
	switch c.nc.(type) {
	case *net.TCPConn, *net.UnixConn:
		return true
	}
	return false
}

// park parks c, which has nothing buffered and waits for its next (or
// first) request, if it may. It reports whether c's goroutine must return:
// c is then served again by resume, or closed by a sweep or Shutdown (or
// was closed here). On false c is either as it was, for the usual wait
// (awaitRequest), or holds the first bytes of its next request.
//
// c first waits ParkIdleAfter in its goroutine, as awaitRequest does
// (buffers given back, one peek, or the response written inside the wait:
// sendBeforePark): a busy connection's next request comes sooner and is
// read here, costing the system calls of awaitRequest and no more. Only
// when the wait times out is c handed to the parker; one with input by
// then (the parker peeks before it arms) is not.
func (c *conn) park() bool {
	if !c.mayPark() {
		return false
	}
	if waited, done := c.sendBeforePark(); waited {
		return done
	}
	if c.flush() != nil || !c.enterIdle() {
		return false
	}
	idleAt := c.idleDeadline() // as awaitRequest sets it
	if after := c.srv.parkIdleAfter(); after > 0 {
		if waited, done := c.waitBeforePark(after, idleAt); waited {
			return done
		}
	}
	return c.parkNow(idleAt)
}

// parkNow hands c, idle with nothing pending, to the parker, reporting
// whether it took it (see park); idleAt is c's idle deadline.
func (c *conn) parkNow(idleAt int64) bool {
	p := getParker()
	if p == nil {
		return false
	}
	c.releaseBuffers()
	c.setReadDeadlineNs(0) // no runtime timer while parked; the sweep keeps time
	if p.add(c, idleAt) {
		return true
	}
	c.setReadDeadlineNs(idleAt) // for awaitRequest, or the input the parker saw
	return false
}

// waitBeforePark waits up to after (> 0) in c's goroutine for c's next
// request, unless parkMaxWaiting new connections already wait (c is then
// parked at once). It reports whether it waited and, if so, whether c's
// goroutine must return (c was finished) or, false, c holds the first
// bytes of its request or waits as usual (awaitRequest) for the idle
// timeout, which comes first.
func (c *conn) waitBeforePark(after time.Duration, idleAt int64) (waited, done bool) {
	fresh := c.nreq <= 1 // not yet shown to be busy
	if fresh && parkWaiting.Load() >= parkMaxWaiting {
		return false, false
	}
	at := c.timeoutAtNs(after)
	if idleAt != 0 && idleAt <= at {
		return true, false // the idle timeout comes first: awaitRequest
	}
	c.setReadDeadlineNs(at)
	if fresh {
		parkWaiting.Add(1)
	}
	err := c.waitReadable()
	if fresh {
		parkWaiting.Add(-1)
	}
	return c.endParkWait(err, after, idleAt)
}

// sendBeforePark is waitBeforePark with the pending response written
// inside the wait (sendAndWait), when c may (sendsInWait) and would wait
// before parking; c is parked (parkNow) when the wait times out. It
// reports as waitBeforePark does, and that it did not wait (false) when
// it did nothing or wrote the response as flush would (park goes on with
// the usual flush and wait).
func (c *conn) sendBeforePark() (waited, done bool) {
	after := c.srv.parkIdleAfter()
	fresh := c.nreq <= 1
	if after <= 0 || fresh && parkWaiting.Load() >= parkMaxWaiting {
		return false, false
	}
	idleAt := c.idleDeadline()
	at := c.timeoutAtNs(after)
	if idleAt != 0 && idleAt <= at {
		return true, false // the idle timeout comes first: awaitRequest (which may send in its wait)
	}
	rec, ok := c.sendsInWait(at)
	if !ok {
		return false, false
	}
	if fresh {
		parkWaiting.Add(1)
	}
	waited, err := c.sendAndWait(at, rec)
	if fresh {
		parkWaiting.Add(-1)
	}
	if !waited {
		return false, false
	}
	if waited, done = c.endParkWait(err, after, idleAt); waited {
		return waited, done
	}
	return true, c.parkNow(idleAt)
}

// endParkWait ends a wait before parking that returned err, reporting as
// waitBeforePark does; false when it timed out (c is to be parked).
func (c *conn) endParkWait(err error, after time.Duration, idleAt int64) (waited, done bool) {
	if err == nil && after >= coarseTimeout {
		// The request's first bytes are read under the wait's deadline,
		// seconds away; the idle one is set before the next read, if
		// any: a busy connection, read whole, changes its deadline once
		// per tick of the coarse clock, not twice per request (each a
		// runtime timer moved, a wake-up of the poller when it moves
		// earlier).
		if c.readFirst(nil) != nil {
			return true, true
		}
		c.deferReadDeadline(idleAt)
		return true, false
	}
	if err == nil || !isTimeout(err) {
		// A read past the deadline fails even with input there: bytes
		// that came as the wait ended are read under the idle one.
		c.setReadDeadlineNs(idleAt)
		return true, c.readFirst(err) != nil
	}
	return false, false
}

// parkMaxWaiting bounds the new connections of the process (before their
// second request) that wait ParkIdleAfter in their goroutines; more are
// parked at once. A connection that has served two requests or more is
// busy, not one of a burst of new connections: it waits ParkIdleAfter
// whatever the count, and is not counted, so that busy connections never
// make new ones park at once (bench/parke2e.sh c2000). The runtime never
// frees a goroutine's descriptor (about 0.45 KB), so the most goroutines
// that ever waited at once stay in memory; with many connections
// waiting, their events batch and parking at once costs about the
// system calls of waiting (bench/parksyscalls.sh, 50 connections: 3.19
// per request parked at once, 3.17 without parking).
const parkMaxWaiting = 1024

// parkWaiting counts the new connections waiting ParkIdleAfter in their
// goroutines (waitBeforePark).
var parkWaiting atomic.Int64

// parkIdleAfter resolves ParkIdleAfter: <= 0 parks at once.
func (s *Server) parkIdleAfter() time.Duration {
	switch d := s.ParkIdleAfter; {
	case d == 0:
		return DefaultParkIdleAfter
	case d < 0:
		return 0
	default:
		return d
	}
}

// readFirst ends a wait of c that returned err: on nil it reads the first
// bytes of the next request, as awaitRequest does after its wait, and
// makes c active. On any error c is finished (an EOF, reset or timeout
// ends it silently, as in rejectHead) and the error returned.
func (c *conn) readFirst(err error) error {
	if err == nil {
		c.takeReadBuf()
		err = c.in.Fill(0, 0) // still idle: Shutdown may close c meanwhile
	}
	if !c.activate(err) && err == nil {
		err = errConnClosed
	}
	if err != nil {
		c.finish()
	}
	return err
}

// add puts c in a slot and arms its fd, reporting whether c is parked.
// Arming happens under p.mu so that c cannot be taken out (and recycled)
// while its goroutine still uses it.
func (p *parker) add(c *conn, deadline int64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c.srv.closing.Load() { // closeParked has run or is waiting for p.mu
		return false
	}
	i := p.slot(c, deadline)
	if !p.arm(c, i) {
		p.empty(i)
		return false
	}
	return true
}

// slot stores c in an empty slot and returns its index.
func (p *parker) slot(c *conn, deadline int64) uint32 {
	if n := len(p.free); n > 0 {
		i := p.free[n-1]
		p.free = p.free[:n-1]
		p.slots[i] = parkSlot{srv: c.srv, c: c, deadline: deadline, gen: p.slots[i].gen}
		return i
	}
	p.slots = append(p.slots, parkSlot{srv: c.srv, c: c, deadline: deadline})
	return uint32(len(p.slots) - 1)
}

// empty empties slot i.
func (p *parker) empty(i uint32) {
	p.slots[i] = parkSlot{gen: p.slots[i].gen + 1}
	p.free = append(p.free, i)
}

// arm registers c's fd for one readable event carrying slot i and its
// generation, under p.mu, unless c has input already (errParkInput). Data
// that arrived between the peek and the call makes the event fire at once.
func (p *parker) arm(c *conn, i uint32) bool {
	p.armEv = unix.EpollEvent{Events: parkArmEvents, Fd: int32(i), Pad: int32(p.slots[i].gen)}
	p.first = !c.parkAdded
	err := c.raw.Control(p.ctl)
	if err != nil || p.err != nil {
		return false
	}
	c.parkAdded = true
	return true
}

// errParkInput is epollCtl's result for a connection with input: it is
// not parked but read at once, without the hand-off to a worker.
var errParkInput = errors.New("brisk: input before parking")

// epollCtl is the RawConn.Control callback of arm: a peek, then
// EPOLL_CTL_ADD for the first park of a connection, MOD to re-arm it
// (each falls back to the other when the kernel disagrees). The kernel
// keys its entry on the open file and the fd, so a closed connection's
// entry, removed at its close, is never found for a new connection that
// got the same fd number.
func (p *parker) epollCtl(fd uintptr) {
	if peekSocket(fd, &p.peek) == peekInput {
		p.err = errParkInput
		return
	}
	op, other, miss := unix.EPOLL_CTL_MOD, unix.EPOLL_CTL_ADD, unix.ENOENT
	if p.first {
		op, other, miss = unix.EPOLL_CTL_ADD, unix.EPOLL_CTL_MOD, unix.EEXIST
	}
	err := unix.EpollCtl(p.epfd, op, int(fd), &p.armEv)
	if err == miss {
		err = unix.EpollCtl(p.epfd, other, int(fd), &p.armEv)
	}
	p.err = err
}

// loop waits for the epoll set in the runtime poller, hands out the
// connections that turn readable, and sweeps every parkSweep.
func (p *parker) loop(rc interface {
	Read(func(uintptr) bool) error
}) {
	for {
		p.nextSweep = time.Now().Add(parkSweep)
		p.file.SetReadDeadline(p.nextSweep)
		rc.Read(p.onReady) // returns when a sweep is due
		p.sweep(time.Now())
	}
}

// onReady takes the ready events without blocking and dispatches them. It
// reports whether a sweep is due; false waits for the set to be readable.
func (p *parker) onReady(uintptr) bool {
	for {
		n, err := unix.EpollWait(p.epfd, p.events, 0)
		if err == unix.EINTR {
			continue
		}
		if n > 0 {
			p.dispatch(p.events[:n])
		}
		if n < len(p.events) {
			break
		}
	}
	return !time.Now().Before(p.nextSweep)
}

// dispatch takes the conns of events out of their slots and starts them.
func (p *parker) dispatch(events []unix.EpollEvent) {
	p.mu.Lock()
	for _, ev := range events {
		i, gen := uint32(ev.Fd), uint32(ev.Pad)
		if int(i) >= len(p.slots) || p.slots[i].gen != gen || p.slots[i].srv == nil {
			continue // its connection left the parker before the event
		}
		p.ready = append(p.ready, readyConn{p.slots[i], ev.Events})
		p.empty(i)
	}
	ready := p.ready
	p.ready = p.ready[:0]
	p.mu.Unlock()
	for i := range ready {
		sl := &ready[i].sl
		if ready[i].events&(unix.EPOLLHUP|unix.EPOLLERR) != 0 {
			sl.finish(p) // reset or fully closed: nothing left to serve
		} else if c := sl.conn(p); c != nil {
			p.start(c)
		}
	}
	clear(ready)
}

// take empties every slot whose server cut says to take, or whose idle
// deadline is at or before now (Unix ns; 0: none), and returns them (the
// caller then owns their connections).
func (p *parker) take(cut func(*Server) bool, now int64) []parkSlot {
	var out []parkSlot
	p.mu.Lock()
	for i := range p.slots {
		sl := &p.slots[i]
		if sl.srv == nil {
			continue
		}
		if cut(sl.srv) || (now != 0 && sl.deadline != 0 && now >= sl.deadline) {
			out = append(out, *sl)
			p.empty(uint32(i))
		}
	}
	p.mu.Unlock()
	return out
}

// sweep closes the parked connections whose idle timeout expired by now
// or whose server shuts down, and sheds the conns of those parked through
// the whole period since the last sweep.
func (p *parker) sweep(now time.Time) {
	expired := p.take(func(s *Server) bool { return s.closing.Load() }, now.UnixNano())
	for i := range expired {
		expired[i].finish(p)
	}
	shed, slots := p.shedOld()
	for _, c := range shed {
		c.recycle()
	}
	for _, ref := range slots {
		p.mu.Lock()
		if sl := &p.slots[ref.i]; sl.gen == ref.gen && sl.srv != nil && sl.c == nil && sl.idle.nc != nil {
			p.detach(ref.i)
		}
		p.mu.Unlock()
	}
}

// slotRef names slot i while its generation is gen.
type slotRef struct{ i, gen uint32 }

// shedOld sheds the conns of the slots marked old by the last sweep, marks
// the others, and returns the shed conns for recycling and the slots
// that were shed, to detach.
func (p *parker) shedOld() ([]*conn, []slotRef) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var shed []*conn
	var slots []slotRef
	for i := range p.slots {
		sl := &p.slots[i]
		switch {
		case sl.c == nil:
		case sl.old:
			sl.idle = sl.c.idleState()
			shed = append(shed, sl.c)
			slots = append(slots, slotRef{uint32(i), sl.gen})
			sl.c = nil
		default:
			sl.old = true
		}
	}
	return shed, slots
}

// closeParked closes the connections of s that are parked, for Shutdown
// (s.closing is set: no more are parked).
func (s *Server) closeParked() {
	p := theParker.p.Load()
	if p == nil {
		return
	}
	taken := p.take(func(o *Server) bool { return o == s }, 0)
	for i := range taken {
		taken[i].finish(p)
	}
}

// parkWorkerIdle is how long a worker waits for another connection to
// resume before it exits.
const parkWorkerIdle = time.Second

// start resumes c on an idle worker, or on a new one when none is idle.
// A worker (rather than a goroutine per resume) costs no allocation.
func (p *parker) start(c *conn) {
	select {
	case p.work <- c:
	default:
		go p.worker(c)
	}
}

// worker resumes c, then each connection handed to it, until none comes
// for parkWorkerIdle.
func (p *parker) worker(c *conn) {
	t := time.NewTimer(parkWorkerIdle)
	defer t.Stop()
	for {
		c.resume()
		t.Reset(parkWorkerIdle)
		select {
		case c = <-p.work:
		case <-t.C:
			return
		}
	}
}

// resume serves c, taken out of the parker because it turned readable, on
// a worker's goroutine: it reads under the idle timeout (a spurious wakeup
// then waits as usual), then goes on with the connection loop.
func (c *conn) resume() {
	c.setReadTimeout(c.lim.idleTimeout)
	if c.readFirst(nil) == nil {
		c.loop()
	}
}
