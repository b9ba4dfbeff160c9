package h2

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/wire"
	"golang.org/x/net/http2"
)

//lint:file-ignore SA1019 x/net v0.62.0 deprecates its HTTP/2 client for net/http's, whose Go 1.26 ClientConn dials its own connections: only http2.Transport.NewClientConn takes one the brisk client dialled and negotiated

// Transport is the HTTP/2 layer of a brisk.Client or brisk.HostClient:
// set it as their ClientConfig.HTTP2 and "https" origins that choose
// "h2" by ALPN are spoken to in HTTP/2 (RFC 9113) by the Go team's
// client, golang.org/x/net/http2, through brisk's API and limits (see
// brisk.ClientConfig.HTTP2 for what applies, and how).
//
//	c := &brisk.Client{ClientConfig: brisk.ClientConfig{HTTP2: &h2.Transport{}}}
//
// Each connection's settings are x/net/http2's client defaults (a 4 MiB
// receive window per stream, 1 GiB per connection; 16 KiB frames; no
// server push), but for those brisk.HTTP2ConnConfig gives and these:
// the server's SETTINGS_MAX_CONCURRENT_STREAMS is a limit on the
// connection (a request beyond it waits), and responses are not
// decompressed by x/net (the brisk client decodes them itself). The zero
// value is ready to use; a Transport may serve any number of clients
// and is safe for concurrent use.
type Transport struct {
	mu sync.Mutex
	ts map[brisk.HTTP2ConnConfig]*http2.Transport // one per configuration
}

// NewClientConn implements brisk.HTTP2Transport: it starts an HTTP/2
// client connection on nc, configured by conf.
func (t *Transport) NewClientConn(nc net.Conn, conf brisk.HTTP2ConnConfig) (brisk.HTTP2Conn, error) {
	cc, err := t.transport(conf).NewClientConn(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return clientConn{cc}, nil
}

// transport returns the x/net transport of conf, made on first use.
func (t *Transport) transport(conf brisk.HTTP2ConnConfig) *http2.Transport {
	t.mu.Lock()
	defer t.mu.Unlock()
	if tr := t.ts[conf]; tr != nil {
		return tr
	}
	// ExpectContinueTimeout is read from a net/http Transport only.
	t1 := &http.Transport{ExpectContinueTimeout: conf.ExpectContinueTimeout, DisableCompression: true}
	tr, err := http2.ConfigureTransports(t1)
	if err != nil { // only for a t1 configured before: not reached
		tr = &http2.Transport{}
	}
	tr.DisableCompression = true
	tr.StrictMaxConcurrentStreams = true
	tr.IdleConnTimeout = conf.IdleTimeout
	tr.MaxHeaderListSize = uint32(min(max(int64(conf.MaxHeaderBytes), 1), 0xfffffffe))
	if t.ts == nil {
		t.ts = make(map[brisk.HTTP2ConnConfig]*http2.Transport)
	}
	t.ts[conf] = tr
	return tr
}

// clientConn is a brisk.HTTP2Conn: an x/net client connection whose
// errors are those brisk.HTTP2Conn documents.
type clientConn struct{ cc *http2.ClientConn }

func (c clientConn) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.cc.RoundTrip(req)
	if err != nil {
		return nil, clientError(err)
	}
	return resp, nil
}

func (c clientConn) ReserveNewRequest() bool { return c.cc.ReserveNewRequest() }

func (c clientConn) Close() error { return c.cc.Close() }

// The x/net errors whose stream the server did not process (RFC 9113
// §8.7), which x/net's own Transport retries on another connection, and
// the one of a field section over MaxHeaderListSize. x/net does not
// export them: they are known by their text (TestClientErrorTexts holds
// them to the x/net version in go.mod).
const (
	errGotGoAway      = "http2: Transport received Server's graceful shutdown GOAWAY"
	errConnUnusable   = "http2: client conn not usable"
	errHeaderListSize = "http2: response header list larger than advertised limit"
)

// clientError maps an x/net client error to the brisk errors
// brisk.HTTP2Conn documents: ErrNotProcessed for a request the server
// did not process, wire.ErrHeaderTooLarge for a field section too
// large, ErrConnectionClosed for any other failure of the stream or
// connection (context errors are left as they are: the client knows its
// contexts).
func clientError(err error) error {
	var se http2.StreamError
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.As(err, &se) && se.Code == http2.ErrCodeRefusedStream,
		err.Error() == errGotGoAway, err.Error() == errConnUnusable:
		return fmt.Errorf("%w: %w", brisk.ErrNotProcessed, err)
	case errors.As(err, &se) && se.Cause != nil && se.Cause.Error() == errHeaderListSize,
		err.Error() == errHeaderListSize:
		return fmt.Errorf("%w: %w", wire.ErrHeaderTooLarge, err)
	}
	return fmt.Errorf("%w: %w", brisk.ErrConnectionClosed, err)
}
