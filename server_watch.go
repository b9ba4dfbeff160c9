package brisk

import (
	"context"
	"sync/atomic"
	"time"
)

// watcher cancels Ctx.Context when the client goes away (unless
// Server.IgnoreClientClose): once the handler asked for the request's
// context (Ctx.Context, or FromHTTP's handler, which may), and while the
// handler runs after the body was read, a goroutine reads one byte from
// the connection. EOF or an error cancels the
// request's context; a byte (a pipelined request) is kept for the next
// parse. A handler that never asks costs nothing: no context, no
// goroutine, no read.
//
// A conn gets its watcher on the first ask and keeps it (it is pooled
// with it): an idle connection that never served an asking handler holds
// none (TestConnSize).
type watcher struct {
	c       *conn
	cancel  context.CancelFunc
	done    chan struct{}
	err     error
	halting atomic.Bool // halt's deadline ends the read: not the client's doing
	running bool
	got     bool
	held    bool // b is input for the next read of the connection (source)
	asked   bool // the handler asked for the context (askWatch)
	b       [1]byte
}

// resetWatch forgets the previous request's ask and readiness.
func (c *conn) resetWatch() {
	c.watchReady = false
	if w := c.watch; w != nil {
		w.asked = false
	}
}

// askWatch is the handler asking for the request's context: unless
// IgnoreClientClose it gets a cancellable one at once (prepareCancel),
// and the watch begins now if the body was read already, else when it
// is (bodyRead).
func (c *conn) askWatch() {
	if c.srv.IgnoreClientClose {
		return
	}
	w := c.watch
	if w == nil {
		w = &watcher{c: c}
		c.watch = w
	}
	if w.asked {
		return
	}
	w.asked = true
	w.prepareCancel()
	if c.watchReady {
		w.start()
	}
}

// bodyRead marks the request body read (at once for a request without
// one) and starts the watch when the handler asked for the context.
func (c *conn) bodyRead() {
	c.watchReady = true
	if w := c.watch; w != nil && w.asked {
		w.start()
	}
}

// stopWatch ends the watch, if any, after the handler returned (stop).
func (c *conn) stopWatch() {
	if w := c.watch; w != nil {
		w.stop()
	}
}

// haltWatch interrupts the watch, if one runs, and returns the byte it
// read, if it got one (halt).
func (c *conn) haltWatch() (b byte, got bool) {
	if w := c.watch; w != nil && w.halt() {
		return w.b[0], true
	}
	return 0, false
}

// start starts watching unless IgnoreClientClose is set, a watch runs
// already, input is buffered (a buffered request shows the client is
// there) or there is nothing to cancel: the handler replaced the context
// (SetContext) before asking for it with one that does not derive from
// the server's.
func (w *watcher) start() {
	c := w.c
	if c.srv.IgnoreClientClose || w.running || w.cancel == nil || c.in.Len() > 0 || c.nc == nil {
		return
	}
	if w.done == nil {
		w.done = make(chan struct{}, 1)
	}
	w.running, w.got, w.err = true, false, nil
	c.setReadTimeout(0)
	go w.run()
}

// prepareCancel gives the request its cancellable context at once unless
// IgnoreClientClose is set, so that a context derived before the watch
// starts (FromHTTP derives one before the handler reads the body) is
// cancelled by it.
func (w *watcher) prepareCancel() {
	c := w.c
	if !c.srv.IgnoreClientClose && c.ctx.ctx == c.srv.baseCtx {
		c.ctx.ctx, w.cancel = context.WithCancel(c.srv.baseCtx)
	}
}

func (w *watcher) run() {
	n, err := w.c.nc.Read(w.b[:])
	if n == 1 {
		w.got = true
	} else {
		w.err = err
		if !w.halting.Load() {
			w.cancel()
		}
	}
	w.done <- struct{}{}
}

// stop ends the watch after the handler returned: it interrupts the read
// (halt), puts a byte it got back into the connection's input and cancels
// the request's context.
func (w *watcher) stop() {
	c, ran := w.c, w.running
	if w.halt() && c.rbuf != nil {
		w.unread()
	} else if ran && w.err != nil && !isTimeout(w.err) {
		c.keepAlive = false
	}
	if w.cancel != nil {
		w.cancel()
		w.cancel = nil
	}
}

// halt interrupts the background read with a past deadline, if one runs,
// and reports whether it got a byte (in w.b[0]). The context is left as
// it is.
func (w *watcher) halt() bool {
	if !w.running {
		return false
	}
	c := w.c
	w.halting.Store(true)
	c.nc.SetReadDeadline(time.Unix(1, 0))
	<-w.done
	w.halting.Store(false)
	w.running = false
	c.nc.SetReadDeadline(time.Time{})
	c.deadline, c.deferredRead = 0, false
	return w.got
}

// unread puts the byte the watch read into the connection's input, after
// the input still buffered (none: the head before it stays in place).
func (w *watcher) unread() {
	c := w.c
	w.held = true
	c.in.Fill(c.in.Offset(), cap(c.in.Storage())+1) // reads the held byte: no I/O
}

func isTimeout(err error) bool {
	te, ok := err.(interface{ Timeout() bool })
	return ok && te.Timeout()
}
