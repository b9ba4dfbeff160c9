package brisk

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"time"

	"github.com/brisk-http/brisk/internal/connio"
	"github.com/brisk-http/brisk/wire"
)

// clientConn is one client connection: it writes a request and reads its
// response, keeping its buffers, field storage and decoder from one
// exchange to the next. It is used by one request at a time.
type clientConn struct {
	hc *HostClient
	nc net.Conn

	in   connio.Reader // the response input; its source is cc (Read)
	wbuf []byte        // the request being written
	tbuf []byte        // a percent-encoded request-target (requestTarget)

	head   wire.ResponseHead
	fields []wire.Field // head field storage, len lim.maxFields

	// Body being read (see client_read.go). The chunked decoder's trailer
	// storage is allocated on the first chunked body.
	body    wire.BodyDecoder
	decoded []byte // FramingChunked: decoded bytes not yet returned, in cc.in's storage

	created   time.Time
	lastUse   time.Time // when it last went idle
	deadline  time.Time // the deadline set on nc
	uses      int       // exchanges started
	sawByte   bool      // a response byte arrived in this exchange
	reqClose  bool      // the request asked to close the connection
	keep      bool      // the connection may carry another exchange
	retriable bool      // reused, and closed by the server before any response byte
	interrupt func()    // cancels the exchange in progress (context.AfterFunc)
	raw       rawIO     // write-then-wait path, when nc is a syscall.Conn

	tls *tls.ConnectionState // of nc, when TLS; see tlsState
}

// aLongTimeAgo is a deadline in the past: setting it fails pending I/O.
var aLongTimeAgo = time.Unix(1, 0)

func newClientConn(hc *HostClient, nc net.Conn) *clientConn {
	now := time.Now()
	cc := &clientConn{
		hc:      hc,
		nc:      nc,
		wbuf:    make([]byte, 0, hc.lim.writeBufSize),
		fields:  make([]wire.Field, hc.lim.maxFields),
		created: now,
		lastUse: now,
	}
	cc.in.Reset(cc, make([]byte, hc.lim.readBufSize))
	cc.body.Chunked.MaxTrailerBytes = hc.lim.maxHeader
	cc.interrupt = func() { cc.nc.SetDeadline(aLongTimeAgo) }
	cc.initRaw(nc)
	return cc
}

func (cc *clientConn) close() { cc.nc.Close() }

// watch makes cancelling ctx interrupt the exchange. It returns the stop
// function of context.AfterFunc (false: the exchange was interrupted), or
// nil when ctx cannot be cancelled.
func (cc *clientConn) watch(ctx context.Context) func() bool {
	if ctx.Done() == nil {
		return nil
	}
	return context.AfterFunc(ctx, cc.interrupt)
}

// deadlineGranularity is the precision of connection deadlines: a
// deadline is rounded up to a multiple of it, so that back-to-back
// requests on a connection share one deadline and do not reset the
// connection's timer each time. A request may thus end up to 10 ms after
// its deadline, never before.
const deadlineGranularity = 10 * time.Millisecond

// setDeadline sets the read and write deadline of the connection, rounded
// up to deadlineGranularity; zero means none. An unchanged deadline is
// not set again.
func (cc *clientConn) setDeadline(t time.Time) error {
	if !t.IsZero() {
		if r := t.Truncate(deadlineGranularity); r.Before(t) {
			t = r.Add(deadlineGranularity)
		} else {
			t = r
		}
	}
	if t.Equal(cc.deadline) {
		return nil
	}
	cc.deadline = t
	return cc.nc.SetDeadline(t)
}

// run writes x.req to target t and reads the response head into x.resp,
// then the whole body unless x streams it. On success cc.keep tells
// whether the connection may be reused.
func (cc *clientConn) run(x *exchange, t *target) error {
	cc.uses++
	cc.sawByte, cc.keep, cc.retriable = false, false, false
	cc.raw.out = nil
	if err := cc.writeRequest(x.req, t); err != nil {
		return err
	}
	if err := cc.readResponse(x.resp, x.req.isHead()); err != nil {
		return err
	}
	if x.stream {
		return nil
	}
	return cc.readBodyInto(x.resp)
}

// writeRequest encodes req and writes it: the head and, when it fits, the
// body in one write.
func (cc *clientConn) writeRequest(req *Request, t *target) error {
	b, plan, bodyIn, err := appendRequest(cc.wbuf[:0], &cc.tbuf, req, t)
	if err != nil {
		return err
	}
	cc.wbuf = b
	cc.reqClose = plan.close
	if bodyIn && cc.raw.rc != nil {
		cc.raw.out = b // written by the first read (sendRead)
		return nil
	}
	if err := cc.write(b); err != nil {
		return err
	}
	if !bodyIn {
		return cc.write(req.body)
	}
	return nil
}

func (cc *clientConn) write(p []byte) error {
	if _, err := cc.nc.Write(p); err != nil {
		return cc.ioError(err)
	}
	return nil
}

// Read reads from the connection into p, noting that the response has
// begun: cc is the source of its reader cc.in. The first read of an
// exchange may write the request first (sendRead).
func (cc *clientConn) Read(p []byte) (int, error) {
	if len(cc.raw.out) > 0 {
		return cc.sendRead(p)
	}
	n, err := cc.nc.Read(p)
	if n > 0 {
		cc.sawByte = true
		return n, nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return 0, err
}

// ioError turns an I/O error into a client error, noting whether the
// request may be retried: the connection was reused and the server closed
// it before sending any byte of the response.
func (cc *clientConn) ioError(err error) error {
	cc.retriable = cc.uses > 1 && !cc.sawByte && isClosedByPeer(err)
	return wrapIO(err, cc.sawByte)
}

// fill reads more input into cc.in, growing its storage up to limit
// bytes; a full buffer is a *wire.Error of kind full. An empty buffer
// starts over at offset 0, so the read gets the whole storage.
func (cc *clientConn) fill(limit int, full wire.Kind) error {
	if cc.in.Len() == 0 {
		cc.in.Discard()
	}
	switch err := cc.in.Fill(0, limit); {
	case err == connio.ErrFull:
		return &wire.Error{Kind: full, Offset: limit}
	case err != nil:
		return cc.ioError(err)
	}
	return nil
}
