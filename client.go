package brisk

import (
	"context"
	"crypto/tls"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brisk-http/brisk/internal/limit"
	"github.com/brisk-http/brisk/proxyproto"
	"github.com/brisk-http/brisk/wire"
)

// Client defaults, used when the corresponding ClientConfig field is zero.
// Every one is documented on its field.
const (
	DefaultClientTimeout          = 30 * time.Second
	DefaultDialTimeout            = 5 * time.Second
	DefaultMaxConnsPerHost        = 512
	DefaultIdleConnTimeout        = 10 * time.Second
	DefaultMaxIdempotentRetries   = 1
	DefaultMaxResponseHeaderBytes = DefaultMaxHeaderBytes // 64 KiB
	DefaultMaxResponseBodyBytes   = 16 << 20              // 16 MiB
)

// DefaultExpectContinueTimeout is how long a request with "Expect:
// 100-continue" waits for the server's 100 (Continue) before it sends its
// body anyway; see ClientConfig.ExpectContinueTimeout.
const DefaultExpectContinueTimeout = time.Second

// ClientConfig is the configuration shared by Client and HostClient. Set
// the fields before the first request and do not change them afterwards.
// The zero value of each field is a documented default.
type ClientConfig struct {
	// Dial opens a connection to addr ("host:port") on network "tcp". It
	// must honour ctx, which carries the dial deadline. Nil means a
	// net.Dialer. brisktest.Listener.DialContext fits here.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)

	// ProxyHeader, when set, is called with each new connection; the
	// PROXY protocol header it returns (see proxyproto.NewHeader; nil
	// means none) is written first, before TLS. A write error fails the
	// dial, as does a header proxyproto.Append cannot encode.
	ProxyHeader func(nc net.Conn) *proxyproto.Header

	// Proxy returns the proxy through which to send requests to target,
	// of which only Scheme ("http" or "https") and Host (host:port) are
	// set; nil (and a nil Proxy) means a direct connection. An "http"
	// proxy gets requests for http targets in absolute-form (RFC 9112
	// §3.2.2) and tunnels https targets with CONNECT (RFC 9110 §9.3.6);
	// a "socks5" or "socks5h" proxy tunnels both (RFC 1928). A user and
	// password in the proxy URL are sent as Basic Proxy-Authorization
	// (HTTP) or as SOCKS5 user/password authentication. Connections are
	// pooled per target and proxy. Client calls Proxy for each request;
	// HostClient once, for Addr. Use ProxyFromEnvironment for net/http's
	// environment rules, ProxyURL for a fixed proxy. Failures to reach
	// the target through the proxy are a *ProxyError (ErrProxy), as is an
	// error Proxy returns.
	Proxy func(target *url.URL) (*url.URL, error)

	// Jar, when set, stores the cookies of every response received
	// (redirects included) and adds the ones it holds for each request's
	// URL to its Cookie field. Nil means no cookies but the request's own.
	// Use httpjar.New for a net/http.CookieJar.
	Jar CookieJar

	// DialTimeout bounds dialling a connection (and the TLS handshake),
	// within the request's deadline. Zero means DefaultDialTimeout (5 s);
	// negative means only the request's deadline. Expiry is ErrTimeout.
	DialTimeout time.Duration

	// TLSConfig configures "https" connections. Nil means a default
	// tls.Config: crypto/tls's defaults (TLS 1.2 to 1.3, the system's
	// roots, certificates verified) and no ALPN. An empty ServerName is
	// set to the host being dialled. Certificates (or
	// GetClientCertificate) give a client certificate for mTLS. Without
	// HTTP2, the client speaks HTTP/1.1 only: ALPN (RFC 7301) offers the
	// "http/1.1" and "http/1.0" of NextProtos and nothing else, so a
	// config offering "h2" (one made for net/http) works, the server
	// choosing HTTP/1.1; with HTTP2, see there. The client changes its
	// own copy, never TLSConfig itself. Response.TLS shows the state of
	// the connection a response came on.
	TLSConfig *tls.Config

	// HTTP2, when set, lets "https" origins choose HTTP/2 (RFC 9113):
	// ALPN offers "h2" then "http/1.1" (of a TLSConfig.NextProtos that
	// lists protocols, "h2" only if it is listed), and a connection on
	// which the server chose "h2" is handed to HTTP2; package h2's
	// Transport implements it with golang.org/x/net/http2. Nil (the
	// default) means HTTP/1.1 only. Cleartext "http" origins always
	// speak HTTP/1.1 (no h2c), as do requests sent through an HTTP
	// proxy; an "https" origin reached through a CONNECT or SOCKS5
	// tunnel may choose HTTP/2.
	//
	// An HTTP/2 origin gets one connection, which carries every request
	// as a stream of its own; another is dialled only once it takes no
	// new streams (a GOAWAY, a connection error, MaxConnLifetime).
	// Requests beyond the server's SETTINGS_MAX_CONCURRENT_STREAMS wait
	// for a stream to end, within their deadline. MaxConnsPerHost
	// bounds HTTP/1.1 connections only. While a first connection is
	// dialled, the origin's other requests wait for it rather than
	// dial their own. When the server chooses "http/1.1" (or no
	// protocol), that connection joins the HTTP/1.1 pool and the
	// origin's requests go over HTTP/1.1, dialling without offering
	// "h2", until none of its HTTP/1.1 connections is left open: the
	// next connection offers "h2" again.
	//
	// The API, the limits, timeouts, retries, redirects, decoding,
	// cookies, interim responses, streamed bodies both ways (an upload
	// may continue while a DoStream response is read: the Request must
	// not change until its BodyStream is closed) and the errors are
	// those of HTTP/1.1, but for these HTTP/2 differences:
	// MaxResponseHeaderBytes is sent as SETTINGS_MAX_HEADER_LIST_SIZE
	// and counts fields as RFC 9113 §6.5.2 does (name, value and 32
	// bytes each): a larger field section is wire.ErrHeaderTooLarge,
	// but one field larger than the whole limit fails the connection
	// (HPACK decoding cannot skip it), and a server that honours the
	// setting may reset the stream rather than send the head, both
	// ErrConnectionClosed; Response.Reason is empty (HTTP/2 has none) and
	// Response.Proto is "HTTP/2.0"; the fields of a response come in
	// the order of their names, not as received; connection-specific
	// request fields (Connection and those it names, Keep-Alive,
	// Proxy-Connection, Upgrade, Transfer-Encoding, a TE other than
	// "trailers") are not sent (RFC 9113 §8.2.2); a request's trailer
	// fields are sent after a streamed body of unknown size only, as
	// for HTTP/1.1; an interim-response handler (Request.SetInterimHandler)
	// runs on the connection's reader, so it must not block;
	// IdleConnTimeout counts from the end of the connection's last
	// stream; a request the server did not process is retried as
	// ErrNotProcessed says.
	HTTP2 HTTP2Transport

	// Timeout bounds a whole exchange started by Do: waiting for a free
	// connection, dialling, writing the request and reading the whole
	// response (each redirect followed restarts it; retries do not).
	// DoTimeout, DoDeadline and a context deadline replace it. Zero means
	// DefaultClientTimeout (30 s); negative means no limit. Expiry is
	// ErrTimeout. Deadlines are applied to connections rounded up to 10
	// ms, so an exchange may end up to 10 ms after its deadline.
	Timeout time.Duration

	// MaxConnsPerHost is the largest number of connections open to one
	// host (scheme and authority), idle or busy. When all are busy a
	// request waits for one to come free, until its deadline (then
	// ErrTimeout). Zero means DefaultMaxConnsPerHost (512); negative means
	// no limit.
	MaxConnsPerHost int

	// IdleConnTimeout is how long an idle keep-alive connection is kept in
	// the pool before it is closed, counted from the start of its last
	// Do (the end of its last DoStream). Zero means DefaultIdleConnTimeout
	// (10 s); negative means idle connections are kept until the server
	// closes them (found on next use) or CloseIdleConnections.
	IdleConnTimeout time.Duration

	// MaxConnLifetime is the longest a connection is used, from its dial;
	// an older one is closed when it would be reused. Zero or negative
	// means no limit.
	MaxConnLifetime time.Duration

	// MaxIdempotentRetries is how many times an idempotent request (GET,
	// HEAD, OPTIONS, TRACE, PUT, DELETE; RFC 9110 §9.2.2) is sent again
	// when a reused keep-alive connection turns out to be closed by the
	// server before any byte of the response arrived. Zero means
	// DefaultMaxIdempotentRetries (1); negative means never. Other
	// requests are never retried: they fail with ErrConnectionClosed.
	//
	// Before a request is sent on an idle connection, the connection is
	// probed without blocking (one recv with MSG_PEEK): one the server has
	// closed, reset or sent bytes on while no request was outstanding
	// (RFC 9112 §9.2) is closed, never used, and another idle one or a
	// new one is used. A request that is not retried (POST, PATCH, ...,
	// or any request when retries are off) probes always; one that is
	// retried probes a connection idle for 5 ms or more (counted from the
	// start of its last exchange), so back-to-back requests cost no extra
	// system call. The probe runs on Linux (not 386) for TCP connections
	// without TLS; elsewhere a connection closed while idle is found only
	// when the request fails.
	MaxIdempotentRetries int

	// MaxRedirects is how many redirects (301, 302, 303, 307, 308 with a
	// Location field) Client.Do follows. Zero or negative means none: the
	// redirect is returned as the response, with a nil error. With a
	// positive MaxRedirects, a redirect received after following
	// MaxRedirects of them is ErrTooManyRedirects (the response holds
	// it). A 303, and a 301 or 302 to a POST, is followed with GET and no
	// body (RFC 9110 §15.4.2-15.4.4).
	//
	// The Location is a URI reference resolved against the URI of the
	// request (RFC 3986 §5.2: relative paths, "..", "?query",
	// "//host/path"); its fragment is dropped, and bytes not allowed in
	// a request-target are sent percent-encoded (see Request.SetURI). An
	// empty Location, one with a scheme other than http or https (such as
	// "ftp:"), a control byte, or one that does not make a valid URI is
	// ErrInvalidURI, with the response holding the redirect.
	//
	// A redirect to another origin (a different scheme, host, compared
	// case-insensitively, or port, 80 or 443 when absent) deletes the
	// Authorization, Proxy-Authorization, Cookie and Cookie2 fields from
	// the request, so that credentials
	// meant for one server are not sent to another (RFC 9110 §15.4,
	// §17); they stay deleted for the redirects after it. A relative
	// Location keeps a Host field set with SetHost.
	//
	// Following modifies the Request: on return it holds the URI, method
	// and fields last sent. HostClient follows only redirects to its own
	// origin; another is ErrRedirectOtherHost.
	MaxRedirects int

	// MaxResponseHeaderBytes is the largest response head (status line,
	// field section, final CRLF), in bytes, and the largest trailer
	// section. Zero or negative means DefaultMaxResponseHeaderBytes
	// (64 KiB). A larger one is wire.ErrHeaderTooLarge (or
	// wire.ErrTrailerTooLarge) and the connection is closed.
	//
	// Each obs-fold in a response head (a field line continued by a line
	// that starts with SP or HTAB) is replaced with one SP before the
	// fields are interpreted (RFC 9112 §5.2): "X: a\r\n b" is the field
	// X with value "a b"; the limit applies to the head as received.
	// Whitespace before the first field line is still wire.ErrObsFold
	// (RFC 9112 §2.2), and a Content-Length or Transfer-Encoding line that
	// is invalid before its continuation is rejected as such. Obs-fold in
	// a trailer section is wire.ErrObsFold.
	MaxResponseHeaderBytes int

	// MaxResponseFields is the largest number of field lines in a
	// response head or trailer section. Zero or negative means
	// DefaultMaxFields (128). More is wire.ErrTooManyFields.
	MaxResponseFields int

	// MaxResponseBodyBytes is the largest response body Do reads, in
	// bytes. Zero means DefaultMaxResponseBodyBytes (16 MiB); negative
	// means no limit. A larger Content-Length fails before the body is
	// read; a chunked or close-delimited body fails once it grows past the
	// limit. Either is an error satisfying errors.Is(err,
	// ErrBodyTooLarge) whose message gives the limit and this field's
	// name, and the connection is closed; resp.Body() is then empty
	// (never a truncated body). The body buffer grows with the bytes
	// received, never from the claimed Content-Length. DoStream bodies
	// are not limited.
	MaxResponseBodyBytes int64

	// ExpectContinueTimeout is how long a request with a body and the
	// field "Expect: 100-continue" (set by the caller) waits, after its
	// head is sent, for the server's 100 (Continue) before it sends the
	// body anyway (RFC 9110 §10.1.1), within the request's deadline.
	// Zero means DefaultExpectContinueTimeout (1 s); negative means no
	// limit but the request's deadline. A final status code received
	// first (such as 413) is the response: the body is not sent, and the
	// connection is closed unless the request was chunked (it is then
	// ended with its last chunk) and the response allows keep-alive.
	ExpectContinueTimeout time.Duration

	// Decoders are the content codings (RFC 9110 §8.4.1) the client asks
	// for and decodes. For a request without an Accept-Encoding or Range
	// field, other than HEAD, the client adds
	// "Accept-Encoding" listing them, and decodes a response whose
	// Content-Encoding is one of them; it then deletes the
	// Content-Encoding and Content-Length fields from the response (as
	// net/http does); a DoStream body is decoded as it is read.
	// MaxResponseBodyBytes bounds the decoded body of Do too: a
	// body that decodes larger (a decompression bomb) is stopped at the
	// limit and is ErrBodyTooLarge; one that does not decode is
	// ErrContentEncoding; either way resp.Body() is empty. A response
	// with several codings, or one the client did not ask for (the
	// request had its own Accept-Encoding), is returned as received. Nil
	// means gzip, with compress/gzip; package decode gives gzip, br and
	// zstd with klauspost/compress and molecule-man/go-brrr.
	Decoders []ContentDecoder

	// KeepContentEncoding turns the above off: no Accept-Encoding is
	// added and bodies are returned as received.
	KeepContentEncoding bool

	// ReadBufferSize is the initial size of a connection's read buffer,
	// in bytes; it grows up to MaxResponseHeaderBytes for a large head.
	// Zero or negative means DefaultReadBufferSize (4 KiB).
	ReadBufferSize int

	// WriteBufferSize is the size of a connection's write buffer, in
	// bytes. A request body that does not fit after the head is written
	// separately. Zero or negative means DefaultWriteBufferSize (4 KiB).
	WriteBufferSize int
}

// clientLimits is a ClientConfig with the defaults applied.
type clientLimits struct {
	dialTimeout   time.Duration // 0: none
	timeout       time.Duration // 0: none
	maxConns      int           // 0: no limit
	idleTimeout   time.Duration // 0: none
	lifetime      time.Duration // 0: none
	retries       int
	maxRedirects  int
	expectTimeout time.Duration // 0: only the request's deadline
	maxHeader     int
	maxFields     int
	maxBody       int64 // < 0: none
	readBufSize   int
	writeBufSize  int
}

func (c *ClientConfig) resolve() clientLimits {
	return clientLimits{
		dialTimeout:   limit.Timeout(c.DialTimeout, DefaultDialTimeout),
		timeout:       limit.Timeout(c.Timeout, DefaultClientTimeout),
		maxConns:      max(nonZeroOr(c.MaxConnsPerHost, DefaultMaxConnsPerHost), 0),
		idleTimeout:   limit.Timeout(c.IdleConnTimeout, DefaultIdleConnTimeout),
		lifetime:      max(c.MaxConnLifetime, 0),
		retries:       max(nonZeroOr(c.MaxIdempotentRetries, DefaultMaxIdempotentRetries), 0),
		maxRedirects:  max(c.MaxRedirects, 0),
		expectTimeout: limit.Timeout(c.ExpectContinueTimeout, DefaultExpectContinueTimeout),
		maxHeader:     limit.Count(c.MaxResponseHeaderBytes, DefaultMaxResponseHeaderBytes),
		maxFields:     limit.Count(c.MaxResponseFields, DefaultMaxFields),
		maxBody:       limit.Bytes(c.MaxResponseBodyBytes, DefaultMaxResponseBodyBytes),
		readBufSize:   limit.Count(c.ReadBufferSize, DefaultReadBufferSize),
		writeBufSize:  limit.Count(c.WriteBufferSize, DefaultWriteBufferSize),
	}
}

func nonZeroOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// Client sends requests to any host, each given by the authority of the
// request's URI (see Request.SetURI), or by its Host for an origin-form
// target (Request.SetTarget and SetHost), over a pool of keep-alive
// connections per host: one HostClient per scheme and authority, created
// on first use and kept for the Client's lifetime. The zero value is
// ready to use with the default configuration. A Client is safe for
// concurrent use; its configuration must not change after the first
// request.
//
//	var c brisk.Client
//	var req brisk.Request
//	var resp brisk.Response
//	req.SetURI("http://127.0.0.1:8080/json")
//	err := c.Do(&req, &resp)
type Client struct {
	ClientConfig

	mu    sync.Mutex                // serializes adding hosts
	hosts atomic.Pointer[hostTable] // copy-on-write: lookups take no lock

	proxied sync.Map // with Proxy: proxyKey → *HostClient (client_proxy.go)
}

// hostTable maps an authority to its HostClient, one map per scheme.
type hostTable struct {
	http, https map[string]*HostClient
}

// Do sends req and reads the whole response into resp, within Timeout.
// resp is reset first; on return its header fields and body are owned by
// resp (not by the connection) and valid until resp is reused. It
// returns nil for any complete response, whatever its status code. After
// an error, resp.StatusCode() is 0 unless a response head was received.
// Redirects are followed as MaxRedirects says.
func (c *Client) Do(req *Request, resp *Response) error {
	return c.do(exchange{ctx: context.Background(), req: req, resp: resp})
}

// DoTimeout is Do with the timeout d instead of Timeout.
func (c *Client) DoTimeout(req *Request, resp *Response, d time.Duration) error {
	return c.do(exchange{ctx: context.Background(), req: req, resp: resp, deadline: time.Now().Add(d), explicit: true})
}

// DoDeadline is Do with the deadline t instead of Timeout.
func (c *Client) DoDeadline(req *Request, resp *Response, t time.Time) error {
	return c.do(exchange{ctx: context.Background(), req: req, resp: resp, deadline: t, explicit: true})
}

// DoContext is Do bounded by ctx: its deadline replaces Timeout (Timeout
// applies when ctx has none), and cancelling ctx ends the exchange with
// an error satisfying errors.Is(err, context.Canceled); the connection is
// then closed.
func (c *Client) DoContext(ctx context.Context, req *Request, resp *Response) error {
	return c.do(ctxExchange(ctx, req, resp))
}

// DoStream sends req and reads the response head into resp, leaving the
// body to be read from the returned BodyStream, which the caller must
// Close. Use it for large downloads and server-sent events. ctx bounds the
// whole exchange, body reads included (its deadline and cancellation);
// until the head arrives, Timeout applies too when ctx has no deadline.
// Redirects are not followed. The body is not limited by
// MaxResponseBodyBytes.
func (c *Client) DoStream(ctx context.Context, req *Request, resp *Response) (*BodyStream, error) {
	x := ctxExchange(ctx, req, resp)
	x.stream, x.client = true, c
	return x.run()
}

// CloseIdleConnections closes the idle connections of every host.
func (c *Client) CloseIdleConnections() {
	c.closeIdleProxied()
	if tab := c.hosts.Load(); tab != nil {
		for _, m := range [2]map[string]*HostClient{tab.http, tab.https} {
			for _, hc := range m {
				hc.CloseIdleConnections()
			}
		}
	}
}

// do runs x, following redirects to any host.
func (c *Client) do(x exchange) error {
	x.client, x.maxRedirects = c, c.MaxRedirects
	_, err := x.run()
	return err
}

// route returns the HostClient and target of req; an authority that is
// not uri-host [":" port] is ErrInvalidURI.
func (c *Client) route(req *Request) (*HostClient, target, error) {
	t, err := req.clientTarget(nil)
	if err != nil {
		return nil, t, err
	}
	if c.Proxy != nil {
		hc, err := c.proxiedHost(&t)
		return hc, t, err
	}
	hc := c.hostClient(&t)
	if hc == nil {
		return nil, t, ErrInvalidURI
	}
	return hc, t, nil
}

// hostClient returns the HostClient for t, creating it on first use, or
// nil when t's authority is not a valid host: it is checked once, before
// the HostClient is created.
func (c *Client) hostClient(t *target) *HostClient {
	if tab := c.hosts.Load(); tab != nil {
		if hc := tab.lookup(t); hc != nil {
			return hc
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.hosts.Load()
	if old != nil {
		if hc := old.lookup(t); hc != nil {
			return hc
		}
	}
	if !wire.ValidHost(t.authority, false) {
		return nil
	}
	hc := &HostClient{ClientConfig: c.ClientConfig, Addr: string(t.authority), TLS: t.https}
	tab := old.with(string(t.authority), t.https, hc)
	c.hosts.Store(tab)
	return hc
}

func (tab *hostTable) lookup(t *target) *HostClient {
	if t.https {
		return tab.https[string(t.authority)]
	}
	return tab.http[string(t.authority)]
}

// with returns a copy of tab with hc added.
func (tab *hostTable) with(key string, https bool, hc *HostClient) *hostTable {
	n := &hostTable{http: map[string]*HostClient{}, https: map[string]*HostClient{}}
	if tab != nil {
		for k, v := range tab.http {
			n.http[k] = v
		}
		for k, v := range tab.https {
			n.https[k] = v
		}
	}
	if https {
		n.https[key] = hc
	} else {
		n.http[key] = hc
	}
	return n
}
