package brisk

import (
	"bytes"
	"context"
	"crypto/tls"
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
	sbuf []byte        // streamed request bodies (client_send.go), allocated on first use

	decs    []Decoder    // content decoders, by index in hc.decoders (client_decompress.go)
	rawBody bytes.Reader // the encoded body being decoded
	decode  bool         // the client added Accept-Encoding to the request

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
	final, err := cc.writeRequest(x, t)
	if err != nil {
		return err
	}
	if !final {
		if err := cc.readResponse(x.resp, x.req.isHead(), x.req.interim); err != nil {
			return err
		}
	}
	if x.stream {
		return nil
	}
	if err := cc.readBodyInto(x.resp); err != nil || !cc.decode {
		return err
	}
	return cc.decodeBody(x.resp)
}

// ioError turns an I/O error into a client error, noting whether the
// request may be retried: the connection was reused and the server closed
// it before sending any byte of the response.
func (cc *clientConn) ioError(err error) error {
	cc.retriable = cc.uses > 1 && !cc.sawByte && isClosedByPeer(err)
	return wrapIO(err, cc.sawByte)
}
