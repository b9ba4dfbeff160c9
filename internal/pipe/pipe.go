// Package pipe is a buffered in-memory net.Conn pair: the transport of
// brisktest.Listener.
package pipe

import (
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// The two ends of a buffered in-memory
// pipe. Each direction is a pipeBuffer of at most Capacity bytes, so a
// Write returns as soon as its bytes are buffered and blocks only while
// the buffer is full. A waiting Read (Write) waits on one channel, the
// buffer's readable (writable), which new bytes (room), either end's
// Close and the deadline all signal: a receive from one channel costs far
// less than a select over four. A waiter that returns passes the signal
// on, for another waiter of the same end.

// Capacity is the most bytes a pipe buffers in each direction (64 KiB).
const Capacity = 64 << 10

// pipeMinBuffer is the first size of a pipeBuffer's storage, in bytes; it
// grows by doubling up to Capacity.
const pipeMinBuffer = 4 << 10

// pipeBuffer is one direction of a pipe: bytes written by one end, not
// yet read by the other.
type pipeBuffer struct {
	mu       sync.Mutex
	buf      []byte        // buffered bytes are buf[r:w]
	r, w     int           //
	readable chan struct{} // capacity 1: bytes were added to an empty buffer
	writable chan struct{} // capacity 1: room was made in a full buffer
}

func newPipeBuffer() *pipeBuffer {
	return &pipeBuffer{readable: make(chan struct{}, 1), writable: make(chan struct{}, 1)}
}

// read moves buffered bytes into p and returns how many.
func (b *pipeBuffer) read(p []byte) int {
	b.mu.Lock()
	wasFull := b.w-b.r == Capacity
	n := copy(p, b.buf[b.r:b.w])
	b.r += n
	left := b.r < b.w
	if !left {
		b.r, b.w = 0, 0
	}
	b.mu.Unlock()
	if n > 0 && wasFull {
		signal(b.writable)
	}
	if left { // another reader may be waiting
		signal(b.readable)
	}
	return n
}

// write buffers as much of p as there is room for and returns how many
// bytes.
func (b *pipeBuffer) write(p []byte) int {
	b.mu.Lock()
	wasEmpty := b.r == b.w
	if len(b.buf)-b.w < len(p) {
		b.makeRoom(len(p))
	}
	n := copy(b.buf[b.w:], p)
	b.w += n
	b.mu.Unlock()
	if n > 0 && wasEmpty {
		signal(b.readable)
	}
	return n
}

// makeRoom moves the buffered bytes to the front of buf and grows buf,
// up to Capacity, towards n bytes of room.
func (b *pipeBuffer) makeRoom(n int) {
	if b.r > 0 {
		b.w = copy(b.buf, b.buf[b.r:b.w])
		b.r = 0
	}
	if len(b.buf)-b.w >= n || len(b.buf) == Capacity {
		return
	}
	size := max(len(b.buf), pipeMinBuffer/2)
	for size < b.w+n && size < Capacity {
		size *= 2
	}
	nb := make([]byte, min(size, Capacity))
	copy(nb, b.buf[:b.w])
	b.buf = nb
}

// signal wakes one waiter of c, or leaves a token for the next one.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// isClosed reports whether c is closed.
func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// pipeDeadline is the read or write deadline of a pipe end: a channel
// closed when the deadline passes. A new channel is made only when a
// deadline is set after the previous one expired, and the timer is
// reused, so moving a deadline does not allocate.
type pipeDeadline struct {
	mu    sync.Mutex // serializes set, fire and stop
	at    time.Time  // zero: none
	timer *time.Timer
	ch    atomic.Pointer[chan struct{}] // set by init
	wake  chan struct{}                 // signalled when the deadline passes
}

func (d *pipeDeadline) init(wake chan struct{}) {
	ch := make(chan struct{})
	d.ch.Store(&ch)
	d.wake = wake
}

// wait returns the channel closed when the deadline passes.
func (d *pipeDeadline) wait() chan struct{} { return *d.ch.Load() }

func (d *pipeDeadline) expired() bool { return isClosed(d.wait()) }

// set moves the deadline to t; zero means none.
func (d *pipeDeadline) set(t time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.at = t
	if d.timer != nil {
		d.timer.Stop()
	}
	p := d.ch.Load()
	if isClosed(*p) {
		ch := make(chan struct{})
		p = &ch
		d.ch.Store(p)
	}
	if t.IsZero() {
		return
	}
	d.schedule(*p)
}

// schedule closes ch now if the deadline has passed, else arms the timer.
func (d *pipeDeadline) schedule(ch chan struct{}) {
	wait := time.Until(d.at)
	switch {
	case wait <= 0:
		close(ch)
		signal(d.wake)
	case d.timer == nil:
		d.timer = time.AfterFunc(wait, d.fire)
	default:
		d.timer.Reset(wait)
	}
}

// fire runs when the timer expires. A timer that fires late for a
// deadline since moved, or early by the wall clock, changes nothing or
// re-arms itself.
func (d *pipeDeadline) fire() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if p := d.ch.Load(); !d.at.IsZero() && !isClosed(*p) {
		d.schedule(*p)
	}
}

// stop releases the timer.
func (d *pipeDeadline) stop() {
	d.mu.Lock()
	if d.timer != nil {
		d.timer.Stop()
	}
	d.mu.Unlock()
}

// Conn is one end of an in-memory pipe.
type Conn struct {
	in, out  *pipeBuffer   // read from in, write to out
	done     chan struct{} // closed by Close
	peerDone chan struct{} // the other end's done
	closer   sync.Once
	wmu      sync.Mutex // makes each Write atomic
	rdl, wdl pipeDeadline
}

// New returns the two ends of a new pipe. Each buffers up to 64 KiB in
// each direction; the semantics are documented on brisktest.Listener.
func New() (*Conn, *Conn) {
	ab, ba := newPipeBuffer(), newPipeBuffer()
	a := &Conn{in: ba, out: ab, done: make(chan struct{})}
	b := &Conn{in: ab, out: ba, done: make(chan struct{}), peerDone: a.done}
	a.peerDone = b.done
	for _, c := range []*Conn{a, b} {
		c.rdl.init(c.in.readable)
		c.wdl.init(c.out.writable)
	}
	return a, b
}

// Read reads buffered bytes, waiting for some when there are none. After
// the other end closed, it returns what remains, then io.EOF. After Close
// it fails with net.ErrClosed; after the read deadline, with
// os.ErrDeadlineExceeded. Errors other than io.EOF are *net.OpError.
func (c *Conn) Read(p []byte) (int, error) {
	for {
		switch {
		case isClosed(c.done):
			return 0, c.readEnd(net.ErrClosed)
		case c.rdl.expired():
			return 0, c.readEnd(os.ErrDeadlineExceeded)
		case len(p) == 0:
			return 0, nil
		}
		if n := c.in.read(p); n > 0 {
			if isClosed(c.peerDone) {
				// Another Read may be waiting for its io.EOF, its wake-up
				// from the peer's Close dropped while the write's was
				// pending: pass one on.
				signal(c.in.readable)
			}
			return n, nil
		}
		if isClosed(c.peerDone) {
			if n := c.in.read(p); n > 0 { // written just before the close
				return n, nil
			}
			signal(c.in.readable)
			return 0, io.EOF
		}
		<-c.in.readable
	}
}

// readEnd passes the wake-up on to another waiting Read and returns err
// as Read's error.
func (c *Conn) readEnd(err error) error {
	signal(c.in.readable)
	return c.opError("read", err)
}

// Write buffers all of p, waiting while the buffer is full; Writes are
// atomic with respect to each other. After Close it fails with
// net.ErrClosed; after the other end closed, with io.ErrClosedPipe; after
// the write deadline, with os.ErrDeadlineExceeded, having written n bytes.
// Errors are *net.OpError.
func (c *Conn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	n := 0
	for {
		switch {
		case isClosed(c.done):
			return n, c.opError("write", net.ErrClosed)
		case isClosed(c.peerDone):
			return n, c.opError("write", io.ErrClosedPipe)
		case c.wdl.expired():
			return n, c.opError("write", os.ErrDeadlineExceeded)
		}
		n += c.out.write(p[n:])
		if n == len(p) {
			return n, nil
		}
		<-c.out.writable
	}
}

// Close closes this end: its pending and later Reads and Writes fail, the
// other end reads what was written, then io.EOF, and its Writes fail.
// Close after the first returns nil too.
func (c *Conn) Close() error {
	c.closer.Do(func() {
		close(c.done)
		c.rdl.stop()
		c.wdl.stop()
		// Wake this end's waiters and the other end's.
		for _, ch := range [...]chan struct{}{c.in.readable, c.out.writable, c.out.readable, c.in.writable} {
			signal(ch)
		}
	})
	return nil
}

func (c *Conn) LocalAddr() net.Addr  { return Addr{} }
func (c *Conn) RemoteAddr() net.Addr { return Addr{} }

// SetDeadline sets the read and write deadlines; see net.Conn.
func (c *Conn) SetDeadline(t time.Time) error {
	if isClosed(c.done) {
		return c.opError("set deadline", net.ErrClosed)
	}
	c.rdl.set(t)
	c.wdl.set(t)
	return nil
}

// SetReadDeadline sets the read deadline; see net.Conn.
func (c *Conn) SetReadDeadline(t time.Time) error {
	if isClosed(c.done) {
		return c.opError("set deadline", net.ErrClosed)
	}
	c.rdl.set(t)
	return nil
}

// SetWriteDeadline sets the write deadline; see net.Conn.
func (c *Conn) SetWriteDeadline(t time.Time) error {
	if isClosed(c.done) {
		return c.opError("set deadline", net.ErrClosed)
	}
	c.wdl.set(t)
	return nil
}

func (c *Conn) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: "inmemory", Source: Addr{}, Addr: Addr{}, Err: err}
}

// Addr is the address of both ends of every pipe: network and string
// "inmemory".
type Addr struct{}

// Network returns "inmemory".
func (Addr) Network() string { return "inmemory" }

// String returns "inmemory".
func (Addr) String() string { return "inmemory" }
