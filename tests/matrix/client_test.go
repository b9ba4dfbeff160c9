package matrix

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/proxyproto"
	"golang.org/x/net/http2"
)

//lint:file-ignore SA1019 x/net v0.62.0 deprecates http2.Transport for net/http's; the matrix keeps the x/net client, the one that sends prior-knowledge h2c on Go 1.26

// Transports and PROXY modes of the matrix.
const (
	h1    = "h1"
	h1TLS = "h1tls"
	h2TLS = "h2"
	h2c   = "h2c"

	noProxy = "none"
	proxyV1 = "v1"
	proxyV2 = "v2"
)

// cell is one of the matrix's combinations.
type cell struct {
	transport, proxy string
	s                *server
	certs            *brisktest.TLSCerts
	via              string // the address to dial instead of the server's (a proxy's)
}

func (c cell) name() string { return c.transport + "_" + c.proxy }

func (c cell) isTLS() bool   { return c.transport == h1TLS || c.transport == h2TLS }
func (c cell) isHTTP2() bool { return c.transport == h2TLS || c.transport == h2c }

// url returns the URL of path on the cell's server.
func (c cell) url(path string) string {
	if c.isTLS() {
		return "https://" + c.s.addr + path
	}
	return "http://" + c.s.addr + path
}

// countConn counts the bytes read and written through it (inside TLS:
// the HTTP bytes).
type countConn struct {
	net.Conn
	read, written atomic.Int64
}

func (c *countConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

func (c *countConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.written.Add(int64(n))
	return n, err
}

// dialLog records a client's connections.
type dialLog struct {
	mu    sync.Mutex
	conns []*countConn
}

// last returns the connection dialed last.
func (d *dialLog) last() *countConn {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.conns) == 0 {
		return nil
	}
	return d.conns[len(d.conns)-1]
}

// dial connects to the cell's server the way the cell says: a PROXY
// header first (source proxySource), then TLS with the cell's ALPN
// protocol.
func (c cell) dial(ctx context.Context, log *dialLog) (net.Conn, error) {
	var d net.Dialer
	addr := c.s.addr
	if c.via != "" {
		addr = c.via
	}
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if c.proxy != noProxy {
		version := map[string]int{proxyV1: 1, proxyV2: 2}[c.proxy]
		hdr, err := proxyproto.Append(nil, proxyproto.NewHeader(version, proxySource, nc.RemoteAddr()))
		if err == nil {
			_, err = nc.Write(hdr)
		}
		if err != nil {
			nc.Close()
			return nil, err
		}
	}
	if c.isTLS() {
		proto := map[bool]string{true: "h2", false: "http/1.1"}[c.isHTTP2()]
		cfg := c.certs.ClientConfig()
		cfg.ServerName, cfg.NextProtos = "localhost", []string{proto}
		tc := tls.Client(nc, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			nc.Close()
			return nil, err
		}
		nc = tc
	}
	cc := &countConn{Conn: nc}
	log.mu.Lock()
	log.conns = append(log.conns, cc)
	log.mu.Unlock()
	return cc, nil
}

// client returns a new client for the cell, each of its connections
// logged; HTTP/1.1 connections are not reused.
func (c cell) client() (*http.Client, *dialLog) {
	log := &dialLog{}
	var rt http.RoundTripper
	if c.isHTTP2() {
		rt = &http2.Transport{AllowHTTP: !c.isTLS(),
			DialTLSContext: func(ctx context.Context, _, _ string, _ *tls.Config) (net.Conn, error) {
				return c.dial(ctx, log)
			}}
	} else {
		dial := func(ctx context.Context, _, _ string) (net.Conn, error) { return c.dial(ctx, log) }
		rt = &http.Transport{DialContext: dial, DialTLSContext: dial, DisableKeepAlives: true}
	}
	return &http.Client{Transport: rt, Timeout: 10 * time.Second}, log
}
