package brisk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"sync"
	"time"

	"golang.org/x/net/http/httpproxy"
	"golang.org/x/net/proxy"

	"github.com/brisk-http/brisk/internal/basicauth"
	"github.com/brisk-http/brisk/wire"
)

// Forward proxies for the client: HTTP proxies (absolute-form requests
// for http targets, CONNECT tunnels for https targets; RFC 9112 §3.2.2,
// RFC 9110 §9.3.6) and SOCKS5 (RFC 1928, RFC 1929).

// ProxyError is a failure to reach a target through a proxy: the proxy
// URL is not usable, dialling the proxy failed, the proxy refused the
// CONNECT tunnel (StatusCode is its answer), or the SOCKS5 handshake
// failed. It satisfies errors.Is(err, ErrProxy), and unwraps to the
// cause (an ErrTimeout for a proxy that did not answer in time).
type ProxyError struct {
	Proxy      string // the proxy URL, its password replaced with "xxxxx"
	Target     string // the authority host:port asked for
	StatusCode int    // the CONNECT response's status code; 0 otherwise
	Err        error
}

func (e *ProxyError) Error() string {
	if e.StatusCode != 0 {
		return fmt.Sprintf("brisk: proxy %s refused CONNECT %s with status %d", e.Proxy, e.Target, e.StatusCode)
	}
	return fmt.Sprintf("brisk: proxy %s for %s: %v", e.Proxy, e.Target, e.Err)
}

// Unwrap returns the cause.
func (e *ProxyError) Unwrap() error { return e.Err }

// Is reports whether target is ErrProxy.
func (e *ProxyError) Is(target error) bool { return target == ErrProxy }

// ProxyFromEnvironment returns the proxy for a request to target (its
// Scheme and Host are used) from the environment variables HTTP_PROXY,
// HTTPS_PROXY and NO_PROXY (or their lower-case forms), with the rules of
// net/http.ProxyFromEnvironment (golang.org/x/net/http/httpproxy): nil,
// meaning no proxy, for a host NO_PROXY matches and for localhost and
// loopback addresses. The environment is read on first use only. Use it
// as ClientConfig.Proxy.
func ProxyFromEnvironment(target *url.URL) (*url.URL, error) {
	return envProxy()(target)
}

var envProxy = sync.OnceValue(envProxyFunc)

// envProxyFunc reads the environment's proxy configuration.
func envProxyFunc() func(*url.URL) (*url.URL, error) {
	return httpproxy.FromEnvironment().ProxyFunc()
}

// ProxyURL returns a ClientConfig.Proxy that sends every request through
// the proxy u.
func ProxyURL(u *url.URL) func(*url.URL) (*url.URL, error) {
	return func(*url.URL) (*url.URL, error) { return u, nil }
}

// proxyRoute is how a HostClient reaches its target through a proxy.
type proxyRoute struct {
	url     *url.URL
	name    string // url.Redacted()
	addr    string // the proxy's host:port
	socks   bool   // SOCKS5; else an HTTP proxy
	auth    []byte // "Basic ..." Proxy-Authorization value, or nil
	forward bool   // HTTP proxy, http target: requests in absolute-form, no tunnel
}

// newProxyRoute checks the proxy URL u for a target with TLS or not: an
// "http" proxy (CONNECT for TLS targets) or a "socks5" / "socks5h" one,
// with an optional user and password. Another scheme is a *ProxyError. A
// nil u is a direct connection: a nil route.
func newProxyRoute(u *url.URL, tlsTarget bool, target string) (*proxyRoute, error) {
	if u == nil {
		return nil, nil
	}
	p := &proxyRoute{url: u, name: u.Redacted()}
	port := "80"
	switch u.Scheme {
	case "http":
	case "socks5", "socks5h":
		p.socks, port = true, "1080"
	default:
		return nil, &ProxyError{Proxy: p.name, Target: target, Err: fmt.Errorf("unsupported proxy scheme %q (want http, socks5 or socks5h)", u.Scheme)}
	}
	if u.Host == "" {
		return nil, &ProxyError{Proxy: p.name, Target: target, Err: errors.New("proxy URL has no host")}
	}
	p.addr = withPort(u.Host, port)
	if u.User != nil && !p.socks {
		p.auth = []byte(basicauth.FromUserinfo(u.User))
	}
	p.forward = !p.socks && !tlsTarget
	return p, nil
}

// dial connects to target (host:port) through the proxy: to the proxy
// itself when it forwards requests, else through a tunnel, a CONNECT or
// SOCKS5 handshake, within ctx. Failures are *ProxyError.
func (p *proxyRoute) dial(ctx context.Context, dial func(context.Context, string, string) (net.Conn, error), target string) (net.Conn, error) {
	if p.socks {
		return p.dialSOCKS(ctx, dial, target)
	}
	nc, err := dial(ctx, "tcp", p.addr)
	if err != nil {
		return nil, p.fail(target, dialError(err))
	}
	if p.forward {
		return nc, nil
	}
	if err := p.connect(ctx, nc, target); err != nil {
		nc.Close()
		return nil, err
	}
	return nc, nil
}

func (p *proxyRoute) fail(target string, err error) error {
	var pe *ProxyError
	if errors.As(err, &pe) {
		return err
	}
	return &ProxyError{Proxy: p.name, Target: target, Err: err}
}

// connect asks the HTTP proxy on nc for a tunnel to target (RFC 9110
// §9.3.6): any 2xx answer opens it. The answer is read byte by byte up
// to its end, so that no byte of the tunnel is consumed, bounded by
// DefaultMaxResponseHeaderBytes.
func (p *proxyRoute) connect(ctx context.Context, nc net.Conn, target string) error {
	stop := context.AfterFunc(ctx, func() { nc.SetDeadline(aLongTimeAgo) })
	defer stop()
	if t, ok := ctx.Deadline(); ok {
		nc.SetDeadline(t)
		defer nc.SetDeadline(time.Time{})
	}
	req := make([]byte, 0, 256)
	req = append(req, "CONNECT "...)
	req = append(req, target...)
	req = append(req, " HTTP/1.1\r\nHost: "...)
	req = append(req, target...)
	req = append(req, "\r\n"...)
	if p.auth != nil {
		req = wire.AppendField(req, "Proxy-Authorization", p.auth)
	}
	req = append(req, "\r\n"...)
	if _, err := nc.Write(req); err != nil {
		return p.fail(target, ioOrCtx(ctx, err))
	}
	head, err := readConnectAnswer(nc)
	if err != nil {
		return p.fail(target, ioOrCtx(ctx, err))
	}
	var h wire.ResponseHead
	h.Reset(make([]wire.Field, DefaultMaxFields))
	var parser wire.Parser
	if _, err := parser.ParseResponse(head, &h); err != nil {
		return p.fail(target, err)
	}
	if h.StatusCode < 200 || h.StatusCode > 299 {
		return &ProxyError{Proxy: p.name, Target: target, StatusCode: h.StatusCode,
			Err: fmt.Errorf("CONNECT answered %d %q", h.StatusCode, h.Reason)}
	}
	return nil
}

// readConnectAnswer reads a response head from nc up to its blank line,
// one byte at a time (a proxy may send the tunnel's first bytes right
// after it).
func readConnectAnswer(nc net.Conn) ([]byte, error) {
	head := make([]byte, 0, 512)
	var c [1]byte
	for {
		if _, err := io.ReadFull(nc, c[:]); err != nil {
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			return nil, wrapIO(err, len(head) > 0)
		}
		head = append(head, c[0])
		if len(head) >= 4 && string(head[len(head)-4:]) == "\r\n\r\n" {
			return head, nil
		}
		if len(head) > DefaultMaxResponseHeaderBytes {
			return nil, &wire.Error{Kind: wire.ErrHeaderTooLarge, Offset: len(head)}
		}
	}
}

// dialSOCKS connects to target through the SOCKS5 proxy
// (golang.org/x/net/proxy), with user and password authentication
// (RFC 1929) when the URL has a user.
func (p *proxyRoute) dialSOCKS(ctx context.Context, dial func(context.Context, string, string) (net.Conn, error), target string) (net.Conn, error) {
	var auth *proxy.Auth
	if u := p.url.User; u != nil {
		pw, _ := u.Password()
		auth = &proxy.Auth{User: u.Username(), Password: pw}
	}
	d, err := proxy.SOCKS5("tcp", p.addr, auth, contextDialer(dial))
	if err != nil {
		return nil, p.fail(target, err)
	}
	nc, err := d.(proxy.ContextDialer).DialContext(ctx, "tcp", target)
	if err != nil {
		return nil, p.fail(target, dialError(err))
	}
	return nc, nil
}

// contextDialer adapts a ClientConfig.Dial to proxy.ContextDialer.
type contextDialer func(context.Context, string, string) (net.Conn, error)

func (d contextDialer) Dial(network, addr string) (net.Conn, error) {
	return d(context.Background(), network, addr)
}

func (d contextDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	return d(ctx, network, addr)
}

// ioOrCtx is the error of an I/O on a proxy connection: ctx's when it
// ended the exchange, else the I/O error as a client error.
func ioOrCtx(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctxError(ctx)
	}
	return wrapIO(err, false)
}

// proxyFor asks choose (ClientConfig.Proxy) for the proxy of the target
// addr (host:port), with TLS or not: nil for a direct connection.
func proxyFor(choose func(*url.URL) (*url.URL, error), tlsTarget bool, addr string) (*proxyRoute, error) {
	u, err := chooseProxy(choose, tlsTarget, addr)
	if err != nil {
		return nil, err
	}
	return newProxyRoute(u, tlsTarget, addr)
}

// chooseProxy asks choose for the proxy URL of the target addr: nil for a
// direct connection, a *ProxyError for choose's error.
func chooseProxy(choose func(*url.URL) (*url.URL, error), tlsTarget bool, addr string) (*url.URL, error) {
	scheme := "http"
	if tlsTarget {
		scheme = "https"
	}
	u, err := choose(&url.URL{Scheme: scheme, Host: addr})
	if err != nil {
		return nil, &ProxyError{Proxy: "(ClientConfig.Proxy)", Target: addr, Err: err}
	}
	return u, nil
}

// proxyKey identifies the HostClient of a target reached through a proxy.
type proxyKey struct {
	https     bool
	authority string
	proxy     string // the proxy URL; "" for a direct connection
}

// proxiedHost returns the HostClient for t when Proxy is set: one per
// target and the proxy Proxy chooses for it, created (and its proxy URL
// checked) on first use.
func (c *Client) proxiedHost(t *target) (*HostClient, error) {
	if !wire.ValidHost(t.authority, false) {
		return nil, ErrInvalidURI
	}
	port := "80"
	if t.https {
		port = "443"
	}
	addr := withPort(string(t.authority), port)
	u, err := chooseProxy(c.Proxy, t.https, addr)
	if err != nil {
		return nil, err
	}
	key := proxyKey{https: t.https, authority: string(t.authority)}
	if u != nil {
		key.proxy = u.String()
	}
	if hc, ok := c.proxied.Load(key); ok {
		return hc.(*HostClient), nil
	}
	p, err := newProxyRoute(u, t.https, addr)
	if err != nil {
		return nil, err
	}
	hc := &HostClient{ClientConfig: c.ClientConfig, Addr: key.authority, TLS: t.https, proxy: p, proxySet: true}
	v, _ := c.proxied.LoadOrStore(key, hc)
	return v.(*HostClient), nil
}

// closeIdleProxied closes the idle connections of the proxied hosts.
func (c *Client) closeIdleProxied() {
	c.proxied.Range(func(_, v any) bool {
		v.(*HostClient).CloseIdleConnections()
		return true
	})
}

// absoluteTarget returns the absolute-form request-target for t sent to
// an HTTP proxy: "http://" authority and the origin-form rt. It is a new
// slice: rt may alias the connection's storage.
func absoluteTarget(t *target, rt []byte) []byte {
	abs := make([]byte, 0, len("http://")+len(t.authority)+len(rt))
	abs = append(abs, "http://"...)
	abs = append(abs, t.authority...)
	return append(abs, rt...)
}
