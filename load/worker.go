package load

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/brisk-http/brisk/internal/connio"
)

const (
	readBufferSize = 64 << 10              // holds any head the parser accepts by default
	connectPause   = 10 * time.Millisecond // wait after a failed connect
)

// counts are a worker's totals, owned by its goroutine until it ends.
type counts struct {
	errors  [kindCount]int64 // failed requests by kind
	status  [6]int64         // responses by status class, index code/100 (0: other)
	first   [kindCount]error // the first failure of each kind (connect: a *ConnectError)
	firstAt [kindCount]int64 // when it happened, ns since the start
}

// live is what the sampler reads while the run goes on; at its end, the
// worker's totals.
type live struct {
	requests atomic.Int64 // responses received, any status
	bytes    atomic.Int64 // bytes read from the connections
	errors   atomic.Int64 // failed requests, any kind (counts.errors added up)
}

// worker drives one connection: it sends requests, reads their responses
// and records latencies, reopening the connection whenever it fails.
type worker struct {
	p   *plan
	run *runState

	mu   sync.Mutex // guards conn against runState.halt
	conn net.Conn

	budget    int64   // requests left to start; -1: unlimited
	next      float64 // open loop: intended send time of the next request, ns since start
	inflight  ring    // requests written (or to rewrite) and not yet answered
	unsent    int     // newest entries of inflight not yet written
	broken    error   // a failed write; responses already sent may still be read
	deadline  int64   // read deadline set on conn, ns since start; 0: none
	wdeadline int64   // write deadline set on conn, ns since start; 0: none

	body *os.File      // Config.BodyFile, opened on first send (proxybody.go)
	in   connio.Reader // the responses read and not yet consumed
	resp response

	hist   *hdrhistogram.Histogram // latency, µs
	maxLat int64                   // highest value hist can record, µs
	counts counts
	live   live
	timer  *time.Timer
}

func newWorker(p *plan, run *runState, id int, budget int64, hist *hdrhistogram.Histogram) *worker {
	w := &worker{
		p:        p,
		run:      run,
		budget:   budget,
		next:     p.interval * float64(id) / float64(p.connections),
		inflight: newRing(p.pipeline),
		hist:     hist,
		maxLat:   hist.HighestTrackableValue(),
	}
	w.resp.reset()
	return w
}

// loop runs until the worker's budget is spent or the run is halted.
func (w *worker) loop() {
	defer w.closeConn()
	defer func() {
		if w.body != nil {
			w.body.Close()
		}
	}()
	for !w.run.stop.Load() {
		if w.budget == 0 && w.inflight.len() == 0 {
			return
		}
		if w.conn == nil && !w.dial() {
			continue
		}
		if err := w.send(); err != nil {
			w.fail(KindTimeout, func() error {
				return fmt.Errorf("requests not written within %v (-timeout)", time.Duration(w.p.timeout))
			})
			continue
		}
		if w.inflight.len() == 0 {
			if w.broken != nil { // every request written got its response
				w.closeConn()
			}
			w.waitNext()
			continue
		}
		w.receive()
	}
}

// dial opens the connection; on failure it counts one failed request.
func (w *worker) dial() bool {
	d := net.Dialer{Timeout: time.Duration(w.p.timeout)}
	c, err := d.DialContext(w.run.ctx, "tcp", w.p.addr)
	if err != nil {
		if w.run.stop.Load() {
			return false
		}
		w.countErrors(KindConnect, 1, func() error { return &ConnectError{Addr: w.p.addr, Err: err} })
		switch {
		case w.inflight.len() > 0:
			w.inflight.pop()
			w.unsent = min(w.unsent, w.inflight.len())
		case w.budget > 0:
			w.budget--
		}
		w.pause(connectPause)
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.run.stop.Load() {
		c.Close()
		return false
	}
	w.conn = c
	w.unsent = w.inflight.len() // requests cut off by a server close are sent again
	w.deadline, w.wdeadline = 0, 0
	w.broken = nil
	w.in.Reset(c, w.storage())
	w.resp.reset()
	return true
}

// abort closes the connection from another goroutine, to end a blocked
// read or write; the worker itself still owns the conn field.
func (w *worker) abort() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.conn != nil {
		w.conn.Close()
	}
}

// closeConn closes the connection and forgets it; only the worker calls it.
func (w *worker) closeConn() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.conn != nil {
		w.conn.Close()
		w.conn = nil
	}
}

// fail counts every request in flight as failed with kind k, for the
// reason cause returns, and drops the connection.
func (w *worker) fail(k ErrorKind, cause func() error) {
	w.closeConn()
	if !w.run.stop.Load() {
		w.countErrors(k, int64(w.inflight.len()), cause)
	}
	w.inflight.clear()
	w.unsent = 0
}

// countErrors counts n failed requests of kind k; the first of the kind
// is kept with its reason, which cause returns (called only then, so
// that counting allocates nothing).
func (w *worker) countErrors(k ErrorKind, n int64, cause func() error) {
	if n == 0 {
		return
	}
	w.counts.errors[k] += n
	w.live.errors.Add(n)
	if w.counts.first[k] == nil {
		w.counts.first[k], w.counts.firstAt[k] = cause(), w.run.now()
	}
}

// send starts the requests that are due and writes every unsent one in a
// single write.
func (w *worker) send() error {
	now := w.run.now()
	for !w.inflight.full() && w.budget != 0 {
		t := now
		if w.p.interval > 0 {
			if int64(w.next) > now {
				break
			}
			t = int64(w.next)
			w.next += w.p.interval
		}
		w.inflight.push(t)
		w.unsent++
		if w.budget > 0 {
			w.budget--
		}
	}
	if w.unsent == 0 || w.broken != nil {
		return nil
	}
	if w.p.timeout > 0 && w.wdeadline-now < w.p.timeout/2 {
		w.wdeadline = now + w.p.timeout
		w.conn.SetWriteDeadline(w.run.at(w.wdeadline))
	}
	var err error
	if w.p.bodySize >= 0 {
		err = w.writeWithFile(w.unsent)
	} else {
		_, err = w.conn.Write(w.p.batch[:w.unsent*len(w.p.request)])
	}
	w.unsent = 0
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return err
	}
	// A server that closes after a response ("Connection: close") makes
	// the writes of pipelined requests fail; its response is still to be
	// read, so read on and count the write error only if the read fails.
	w.broken = err
	return nil
}

// waitNext sleeps until the next intended send time (open loop) or until
// the run is halted.
func (w *worker) waitNext() {
	d := time.Duration(int64(w.next) - w.run.now())
	if w.p.interval == 0 || d <= 0 {
		return
	}
	w.pause(d)
}

func (w *worker) pause(d time.Duration) {
	if w.timer == nil {
		w.timer = time.NewTimer(d)
	} else {
		w.timer.Reset(d)
	}
	select {
	case <-w.timer.C:
	case <-w.run.ctx.Done():
		w.timer.Stop()
	}
}

// receive reads once and handles every response completed by the bytes read.
func (w *worker) receive() {
	at := w.in.Offset()
	w.in.Compact()
	w.setReadDeadline()
	before := w.in.Len()
	err := w.in.Fill(0, readBufferSize) // moves the unread bytes to the front when full
	if w.in.Offset() != at && w.resp.inHead() {
		w.resp.reset() // parsed fields aliased the moved bytes: parse again
	}
	if err == connio.ErrFull { // a head larger than the buffer
		w.fail(KindParse, func() error {
			return fmt.Errorf("response head larger than the %d KiB read buffer", readBufferSize>>10)
		})
		return
	}
	now := w.run.now()
	if n := w.in.Len() - before; n > 0 {
		w.live.bytes.Add(int64(n))
		if !w.consume(now) {
			return
		}
	}
	if err != nil {
		w.readError(err, now)
	}
}

// storage returns the read buffer's storage, kept across connections.
func (w *worker) storage() []byte {
	if b := w.in.Storage(); cap(b) == readBufferSize {
		return b[:cap(b)]
	}
	return make([]byte, readBufferSize)
}

// consume handles the buffered responses, answered at time now. It
// reports whether the connection is still usable.
func (w *worker) consume(now int64) bool {
	done := int64(0)
	defer func() { w.live.requests.Add(done) }()
	for w.inflight.len() > 0 {
		n, complete, err := w.resp.advance(w.in.Buffered(), w.p.headRequest)
		w.in.Consume(n)
		if err != nil {
			w.fail(KindParse, func() error { return err })
			return false
		}
		if !complete {
			return true
		}
		done++
		if !w.complete(now) {
			return false
		}
	}
	return true
}

// complete records the response just read. It reports whether the
// connection stays open.
func (w *worker) complete(now int64) bool {
	w.record(now - w.inflight.pop())
	h := &w.resp.head
	class := h.StatusCode / 100
	if class > 5 {
		class = 0
	}
	w.counts.status[class]++
	if class != 2 {
		code := h.StatusCode
		w.countErrors(KindStatus, 1, func() error { return fmt.Errorf("status %d", code) })
	}
	keep := !w.p.closeEach && h.KeepAlive() && !w.resp.untilClose()
	w.resp.reset()
	if !keep {
		w.closeConn()
	}
	return keep
}

// record adds a latency in ns to the histogram, in µs.
func (w *worker) record(ns int64) {
	v := ns / 1000
	if v < 1 {
		v = 1
	}
	if v > w.maxLat {
		v = w.maxLat
	}
	w.hist.RecordValue(v)
}

// readError handles a failed read at time now.
func (w *worker) readError(err error, now int64) {
	if w.run.stop.Load() || w.conn == nil {
		return
	}
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		if w.p.timeout > 0 && w.inflight.len() > 0 && now-w.inflight.oldest() >= w.p.timeout {
			w.fail(KindTimeout, func() error {
				return fmt.Errorf("no complete response within %v (-timeout)", time.Duration(w.p.timeout))
			})
		}
		// Otherwise the deadline was an early one (see setReadDeadline): read on.
	case err == io.EOF && w.resp.untilClose():
		w.live.requests.Add(1)
		w.complete(now)
	case w.broken != nil:
		broken := w.broken
		w.fail(KindWrite, func() error { return cause(broken) })
	case err == io.EOF:
		w.fail(KindRead, func() error { return errServerClosed })
	default:
		w.fail(KindRead, func() error { return cause(err) })
	}
}

// setReadDeadline makes sure the next read returns by the time something
// is due: the oldest request's timeout, or in open loop the next send. A
// deadline already set earlier than that is kept: when it fires, the read
// returns early and the next call sets the right one. So in closed loop
// the deadline is touched about once per Timeout, not once per read.
func (w *worker) setReadDeadline() {
	var due int64
	if w.p.timeout > 0 {
		due = w.inflight.oldest() + w.p.timeout
	}
	if w.p.interval > 0 && !w.inflight.full() && w.budget != 0 {
		if next := int64(w.next); due == 0 || next < due {
			due = next
		}
	}
	switch {
	case due == 0:
		if w.deadline != 0 {
			w.conn.SetReadDeadline(time.Time{})
			w.deadline = 0
		}
	case w.deadline == 0 || w.deadline > due || w.deadline <= w.run.now():
		w.conn.SetReadDeadline(w.run.at(due))
		w.deadline = due
	}
}
