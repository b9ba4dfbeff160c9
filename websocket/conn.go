package websocket

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"iter"
	"net"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// MessageType is a data message's type (RFC 6455 §5.6).
type MessageType byte

// The data message types.
const (
	Text   MessageType = 1 // UTF-8 text
	Binary MessageType = 2
)

// ErrMessageType is returned by WriteMessage for a type other than Text
// and Binary.
var ErrMessageType = errors.New("websocket: message type is not Text or Binary")

// closeLinger bounds the wait for the client's Close after the server's
// (RFC 6455 §7.1.1: the server closes the TCP connection once Close frames
// were exchanged). What arrives meanwhile is read and dropped, however
// much: closing with unread input would reset the connection, and the
// client could lose the server's Close frame.
const closeLinger = time.Second

// keptBuffer is the largest message buffer a Conn keeps for the next
// message; a larger one is dropped when the next read starts.
const keptBuffer = 64 << 10

// Conn is a WebSocket connection on the server side, from Upgrade.
//
// One goroutine at a time may read (ReadMessage, Messages); writes
// (WriteMessage, CloseWith) may come from any goroutine, each frame whole.
// Ping, Pong and Close frames from the client are answered inside
// ReadMessage, so keep reading to have them answered.
type Conn struct {
	nc          net.Conn
	br          *bufio.Reader
	lim         limits
	subprotocol string
	deflateOpt  deflateParams
	remote      net.Addr

	// read side: the reading goroutine only
	msg       []byte // the last message returned
	raw       []byte // a compressed message's payload
	rawReader bytes.Reader
	inflater  io.ReadCloser
	ctl       [125]byte
	skip      int64 // unread payload of the frame that failed the read
	err       error // what ended reading
	reading   atomic.Bool

	// write side, under wmu
	wmu       sync.Mutex
	wbuf      []byte
	wbufs     net.Buffers // header and payload of a large frame, over iov
	iov       [2][]byte
	zbuf      bytes.Buffer
	closeSent bool
	sentCode  StatusCode
	sentWhy   string
	broken    bool // a write failed: the connection is closed

	closing  atomic.Bool // a Close was sent or a write failed: reads no longer extend the deadline
	pinger   *time.Timer
	stopCtx  func() bool
	closer   *time.Timer // closes nc closeLinger after a Close sent off the read path
	finished sync.Once
}

func newConn(nc net.Conn, br *bufio.Reader, l limits, h handshake, ctx context.Context, remote net.Addr) *Conn {
	c := &Conn{nc: nc, br: br, lim: l, subprotocol: h.subprotocol, deflateOpt: h.deflate, remote: remote}
	if l.ping > 0 {
		c.wmu.Lock() // ping reads c.pinger under it
		c.pinger = time.AfterFunc(l.ping, c.ping)
		c.wmu.Unlock()
	}
	c.stopCtx = context.AfterFunc(ctx, func() { c.CloseWith(StatusGoingAway, "server shutting down") })
	return c
}

// Subprotocol returns the subprotocol selected (Options.Subprotocols), or
// "" for none.
func (c *Conn) Subprotocol() string { return c.subprotocol }

// Compressed reports whether permessage-deflate was negotiated.
func (c *Conn) Compressed() bool { return c.deflateOpt.ok }

// RemoteAddr returns the client's address as brisk.Ctx.RemoteAddr did:
// the PROXY header's source when the connection had one.
func (c *Conn) RemoteAddr() net.Addr { return c.remote }

// NetConn returns the underlying connection, for its addresses and TLS
// state; reading or writing it corrupts the WebSocket stream.
func (c *Conn) NetConn() net.Conn { return c.nc }

// Err returns the error that ended reading: a *CloseError after a Close
// handshake (errors.Is(err, ErrClosed)), another error when the
// connection failed (io.EOF: the client closed it without a Close frame),
// or nil while the Conn is open. Like ReadMessage, it is for the reading
// goroutine.
func (c *Conn) Err() error { return c.err }

// ReadMessage returns the next data message, answering the control frames
// before it. The returned slice is the Conn's, valid until the next
// ReadMessage; copy it to keep it. A text message is valid UTF-8.
//
// It fails with a *CloseError once a Close frame was exchanged (the
// client's, answered; or the server's, sent for a protocol error, a
// message over MaxMessageSize, IdleTimeout, shutdown or CloseWith), or
// with the connection's error; the connection is then closed, and every
// later call returns the same error.
func (c *Conn) ReadMessage() (MessageType, []byte, error) {
	if c.err != nil {
		return 0, nil, c.err
	}
	c.reading.Store(true)
	defer c.reading.Store(false) // after c.err is set: Close reads it then
	typ, msg, err := c.readMessage()
	if err != nil {
		c.err = c.finish(err)
		return 0, nil, c.err
	}
	return typ, msg, nil
}

// Messages returns an iterator over the messages ReadMessage returns,
// which stops at its first error (see Err). The slice yielded is valid
// until the next iteration.
func (c *Conn) Messages() iter.Seq2[MessageType, []byte] {
	return func(yield func(MessageType, []byte) bool) {
		for {
			typ, msg, err := c.ReadMessage()
			if err != nil || !yield(typ, msg) {
				return
			}
		}
	}
}

// WriteMessage sends p as one message of type typ, compressed when
// permessage-deflate was negotiated and p is 128 bytes or more. It may be
// called from any goroutine; p is not retained. It fails with
// ErrMessageType, with ErrClosed after a Close was sent, or with the
// write's error (Options.WriteTimeout), after which the connection is
// closed.
func (c *Conn) WriteMessage(typ MessageType, p []byte) error {
	if typ != Text && typ != Binary {
		return ErrMessageType
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closeSent || c.broken {
		return ErrClosed
	}
	rsv1 := false
	if c.deflateOpt.ok && len(p) >= compressMin && len(p) <= c.deflateOpt.maxCompressed() {
		z, err := c.deflate(p)
		if err != nil {
			return err
		}
		p, rsv1 = z, true
	}
	err := c.writeFrame(byte(typ), rsv1, p)
	if cap(c.zbuf.Bytes()) > keptBuffer {
		c.zbuf = bytes.Buffer{}
	}
	return err
}

// CloseWith starts the Close handshake with code and reason (RFC 6455
// §7.1.2; the reason is cut to 123 bytes, at a character boundary): it
// sends a Close frame, unless one was sent, and the connection is closed
// once the client's Close arrives (ReadMessage then returns a *CloseError
// with Local set) or after a second. It may be called from any goroutine.
// It fails with ErrCloseCode for a code that may not be sent (RFC 6455
// §7.4: 1000-1003, 1007-1014 and 3000-4999 may).
func (c *Conn) CloseWith(code StatusCode, reason string) error {
	if !validCloseCode(code) {
		return ErrCloseCode
	}
	if !c.sendClose(code, reason) {
		return nil
	}
	c.nc.SetReadDeadline(time.Now().Add(closeLinger))
	c.wmu.Lock()
	if c.closer == nil {
		c.closer = time.AfterFunc(closeLinger, func() { c.nc.Close() })
	}
	c.wmu.Unlock()
	return nil
}

// Close ends the connection: it sends Close 1000 unless a Close was
// exchanged, waits up to a second for the client's Close, closes the
// connection and releases the Conn's timers. It returns nil, or the error
// closing the connection. Call it from the reading goroutine or once no
// read is in progress (Handler does, when its function returns); while
// another goroutine is in ReadMessage, it only does what CloseWith does,
// and that ReadMessage ends the connection.
func (c *Conn) Close() error {
	if c.reading.Load() {
		return c.CloseWith(StatusNormalClosure, "")
	}
	if c.err == nil {
		if c.sendClose(StatusNormalClosure, "") {
			c.linger()
		}
		c.err = c.sentClose()
	}
	c.release()
	err := c.nc.Close()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

// finish ends reading after err: it sends the Close a failure calls for,
// waits for the client's, closes the connection and returns the error
// ReadMessage reports.
func (c *Conn) finish(err error) error {
	var ce *CloseError
	var f *failure
	switch {
	case errors.As(err, &ce):
	case errors.As(err, &f):
		if c.sendClose(f.code, f.reason) {
			c.linger()
		}
		ce = c.sentClose()
	case c.closeWasSent(): // and went unanswered
		ce = c.sentClose()
	default:
		c.release()
		c.nc.Close()
		return err
	}
	c.release()
	c.nc.Close()
	return ce
}

// closeWasSent reports whether the server sent a Close frame.
func (c *Conn) closeWasSent() bool {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.closeSent
}

// sentClose is the CloseError for the Close the server sent.
func (c *Conn) sentClose() *CloseError {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return &CloseError{Code: c.sentCode, Reason: c.sentWhy, Local: true}
}

// release stops the timers and the context watch.
func (c *Conn) release() {
	c.finished.Do(func() {
		c.wmu.Lock()
		if c.pinger != nil {
			c.pinger.Stop()
		}
		c.wmu.Unlock()
		c.stopCtx()
	})
}

// ping sends a Ping and schedules the next one.
func (c *Conn) ping() {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closeSent || c.broken {
		return
	}
	if c.writeFrame(opPing, false, nil) == nil {
		c.pinger.Reset(c.lim.ping)
	}
}

// sendClose sends a Close frame unless one was sent, and reports whether
// it did.
func (c *Conn) sendClose(code StatusCode, reason string) bool {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closeSent || c.broken {
		return false
	}
	reason = cutReason(reason)
	c.closeSent, c.sentCode, c.sentWhy = true, code, reason
	c.closing.Store(true)
	var p [125]byte
	p[0], p[1] = byte(code>>8), byte(code)
	n := copy(p[2:], reason)
	if c.writeFrame(opClose, false, p[:2+n]) == nil {
		closeWrite(c.nc)
	}
	return !c.broken
}

// cutReason cuts a Close reason to the 123 bytes a Close frame holds
// (RFC 6455 §5.5), at a character boundary.
func cutReason(reason string) string {
	if len(reason) <= 123 {
		return reason
	}
	reason = reason[:123]
	for len(reason) > 0 && !utf8.ValidString(reason) {
		reason = reason[:len(reason)-1]
	}
	return reason
}

// closeWrite half-closes nc after the server's Close frame, when it can
// (TCP: FIN; TLS: close_notify), so that a client waiting for the end of
// the stream sees it at once; the client's Close is still read.
func closeWrite(nc net.Conn) {
	for {
		switch cn := nc.(type) {
		case interface{ CloseWrite() error }:
			cn.CloseWrite()
			return
		case interface{ NetConn() net.Conn }:
			nc = cn.NetConn()
		default:
			return
		}
	}
}

// linger reads and drops what the client sends after the server's Close
// (the rest of a refused frame, messages in flight) until its Close, for
// at most closeLinger.
func (c *Conn) linger() {
	c.nc.SetReadDeadline(time.Now().Add(closeLinger))
	for {
		for c.skip > 0 {
			n, err := c.br.Discard(int(min(c.skip, 1<<30)))
			c.skip -= int64(n)
			if err != nil {
				return
			}
		}
		h, err := c.readHeader()
		if err != nil || h.op == opClose {
			return
		}
		c.skip = h.length
	}
}
