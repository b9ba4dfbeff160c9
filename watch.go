package brisk

import (
	"context"
	"time"
)

// watcher implements Server.CancelOnClientClose: while the handler runs
// (after the body was read), a goroutine reads one byte from the
// connection. EOF or an error cancels the request's context; a byte (a
// pipelined request) is kept for the next parse.
type watcher struct {
	c       *conn
	cancel  context.CancelFunc
	done    chan struct{}
	err     error
	running bool
	got     bool
	held    bool // b is input for the next read of the connection (source)
	b       [1]byte
}

// startIfWanted starts watching when CancelOnClientClose is set, no input
// is buffered (a buffered request shows the client is there) and the body
// has been read.
func (w *watcher) startIfWanted() {
	c := w.c
	if !c.srv.CancelOnClientClose || w.running || c.in.Len() > 0 || c.nc == nil {
		return
	}
	if c.ctx.ctx == c.srv.baseCtx {
		c.ctx.ctx, w.cancel = context.WithCancel(c.srv.baseCtx)
	}
	if w.done == nil {
		w.done = make(chan struct{}, 1)
	}
	w.running, w.got, w.err = true, false, nil
	c.setReadTimeout(0)
	go w.run()
}

func (w *watcher) run() {
	n, err := w.c.nc.Read(w.b[:])
	if n == 1 {
		w.got = true
	} else {
		w.err = err
		w.cancel()
	}
	w.done <- struct{}{}
}

// stop ends the watch after the handler returned: it interrupts the read
// with a past deadline and puts a byte it got back into the read buffer.
func (w *watcher) stop() {
	if w.cancel != nil && !w.running {
		w.cancel()
		w.cancel = nil
	}
	if !w.running {
		return
	}
	c := w.c
	c.nc.SetReadDeadline(time.Unix(1, 0))
	<-w.done
	w.running = false
	c.nc.SetReadDeadline(time.Time{})
	c.deadline = 0
	w.cancel()
	w.cancel = nil
	if w.got && c.rbuf != nil {
		w.unread()
	} else if w.err != nil && !isTimeout(w.err) {
		c.keepAlive = false
	}
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
