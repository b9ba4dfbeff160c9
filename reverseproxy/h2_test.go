package reverseproxy

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/h2"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
	"github.com/brisk-http/brisk/proxyproto"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

//lint:file-ignore SA1019 x/net v0.62.0 deprecates http2.Transport for net/http's; these tests keep the x/net client that the h2 server is tested against

// h2Front serves p with HTTP/2 on loopback: over TLS (ALPN h2) when
// tlsOn, else h2c with prior knowledge; behind a PROXY header from
// loopback when proxied. It returns a dial function for the client, which
// sends the PROXY header (source 203.0.113.7:4000) when proxied.
func h2Front(t *testing.T, p *Proxy, certs *brisktest.TLSCerts, tlsOn, proxied bool) func(ctx context.Context) (net.Conn, error) {
	t.Helper()
	t.Cleanup(p.CloseIdleConnections)
	srv := testserver.Quiet(&brisk.Server{Handler: p.Serve, H2C: !tlsOn})
	if proxied {
		srv.ProxyProtocol = &brisk.ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	}
	if err := h2.Configure(srv, h2.Config{}); err != nil {
		t.Fatal(err)
	}
	ln := testserver.Listen(t)
	if tlsOn {
		serveTLS(t, srv, ln, certs)
	} else {
		testserver.Serve(t, srv, ln)
	}
	addr := ln.Addr().String()
	return func(ctx context.Context) (net.Conn, error) {
		var d net.Dialer
		nc, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return nil, err
		}
		if proxied {
			h := proxyproto.NewHeader(2, &net.TCPAddr{IP: net.ParseIP("203.0.113.7"), Port: 4000}, nc.RemoteAddr())
			head, _ := proxyproto.Append(nil, h)
			if _, err := nc.Write(head); err != nil {
				nc.Close()
				return nil, err
			}
		}
		if !tlsOn {
			return nc, nil
		}
		conf := certs.ClientConfig()
		conf.ServerName, conf.NextProtos = "localhost", []string{"h2"}
		tc := tls.Client(nc, conf)
		if err := tc.HandshakeContext(ctx); err != nil {
			nc.Close()
			return nil, err
		}
		return tc, nil
	}
}

// h2Backend answers /get with the forwarding fields it received, and
// /post by reading the body as it comes (signalling first after its
// first 5 bytes), then answering with the body, the request's X-Sum
// trailer and a response trailer X-Done.
func h2Backend(first chan<- struct{}) brisk.Handler {
	return func(c *brisk.Ctx) {
		if string(c.Request.Path()) != "/post" {
			for _, name := range []string{"Via", "X-Forwarded-For", "X-Forwarded-Proto"} {
				c.Response.WriteString(name + ": " + string(c.Request.Header.Get(name)) + "\n")
			}
			return
		}
		r := c.Request.BodyReader()
		head := make([]byte, 5)
		if _, err := io.ReadFull(r, head); err != nil {
			c.Response.SetStatusCode(400)
			return
		}
		first <- struct{}{}
		rest, err := io.ReadAll(r)
		if err != nil {
			c.Response.SetStatusCode(400)
			return
		}
		c.Response.Header.Set("Trailer", "X-Done")
		w := c.BodyWriter()
		w.Write(head)
		w.Write(rest)
		w.WriteString("|" + string(c.Request.Trailer.Get("X-Sum")))
		c.Response.Trailer.Set("X-Done", "yes")
	}
}

// TestProxyDownstreamH2: a client speaking HTTP/2, over TLS (ALPN h2)
// and h2c, directly and behind a PROXY v2 header, gets a GET forwarded
// with Via "2" and the client's address (the PROXY header's source when
// there is one), a POST body streamed to the upstream before the client
// has sent all of it, with its trailers both ways, and one Record per
// request.
func TestProxyDownstreamH2(t *testing.T) {
	certs := brisktest.NewTLSCerts()
	for _, tc := range []struct {
		name           string
		tlsOn, proxied bool
	}{
		{"tls", true, false}, {"h2c", false, false}, {"tls_proxy", true, true}, {"h2c_proxy", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := make(chan struct{}, 1)
			p := &Proxy{Upstreams: []string{backend(t, h2Backend(first))}}
			record := records(t, p)
			dial := h2Front(t, p, certs, tc.tlsOn, tc.proxied)
			tr := &http2.Transport{AllowHTTP: true, DialTLSContext: func(ctx context.Context, _, _ string, _ *tls.Config) (net.Conn, error) {
				return dial(ctx)
			}}
			defer tr.CloseIdleConnections()
			cl := &http.Client{Transport: tr, Timeout: testTimeout}
			scheme, proto, from := "http", "http", "127.0.0.1"
			if tc.tlsOn {
				scheme, proto = "https", "https"
			}
			if tc.proxied {
				from = "203.0.113.7"
			}

			resp, err := cl.Get(scheme + "://localhost/get")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			want := "Via: 2 brisk\nX-Forwarded-For: " + from + "\nX-Forwarded-Proto: " + proto + "\n"
			if resp.ProtoMajor != 2 || resp.StatusCode != 200 || string(body) != want {
				t.Errorf("GET: %s %d %q, want HTTP/2.0 200 %q", resp.Proto, resp.StatusCode, body, want)
			}
			if rec := record(1); rec.Status != 200 || rec.Err != nil || rec.Upstream != p.Upstreams[0] {
				t.Errorf("GET record %+v", rec)
			}

			pr, pw := io.Pipe()
			req, _ := http.NewRequest("POST", scheme+"://localhost/post", pr)
			req.Trailer = http.Header{"X-Sum": nil}
			go func() {
				pw.Write([]byte("part1"))
				select { // the upstream has the first bytes before the client sends the rest
				case <-first:
				case <-time.After(testTimeout):
					pw.CloseWithError(errors.New("the first part did not reach the upstream"))
					return
				}
				req.Trailer.Set("X-Sum", "42")
				pw.Write([]byte(",part2"))
				pw.Close()
			}()
			resp, err = cl.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != 200 || string(body) != "part1,part2|42" || resp.Trailer.Get("X-Done") != "yes" {
				t.Errorf("POST: %d %q (%v), trailer %v; want 200 \"part1,part2|42\" with X-Done: yes", resp.StatusCode, body, err, resp.Trailer)
			}
			if rec := record(2); rec.Status != 200 || rec.Err != nil || rec.Sent != int64(len(body)) {
				t.Errorf("POST record %+v", rec)
			}
		})
	}
}

// TestProxyDownstreamH2Upgrade: on HTTP/2 (TLS and h2c) there is no
// upgrade (RFC 9113 §8.2.2, §8.6): a request with Connection and Upgrade
// fields is answered 400 and an extended CONNECT (RFC 8441, not offered)
// reset with PROTOCOL_ERROR by the h2 server, neither reaching the Proxy
// or the upstream; a CONNECT is refused with 405 although Connect is set,
// which is not called (an h2 stream is not tunnelled); and the
// connection goes on serving.
func TestProxyDownstreamH2Upgrade(t *testing.T) {
	certs := brisktest.NewTLSCerts()
	for _, tlsOn := range []bool{true, false} {
		t.Run(map[bool]string{true: "tls", false: "h2c"}[tlsOn], func(t *testing.T) {
			var hits atomic.Int32
			up := backend(t, func(c *brisk.Ctx) {
				hits.Add(1)
				c.Response.WriteString("plain")
			})
			var connects atomic.Int32
			p := &Proxy{Upstreams: []string{up}, Connect: func(c *brisk.Ctx) (net.Conn, error) {
				connects.Add(1)
				return net.Dial("tcp", strings.TrimPrefix(up, "http://"))
			}}
			var completed atomic.Int32
			p.OnComplete = func(*brisk.Ctx, *Record) { completed.Add(1) }
			dial := h2Front(t, p, certs, tlsOn, false)
			ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
			defer cancel()
			nc, err := dial(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			nc.SetDeadline(time.Now().Add(testTimeout))
			cc := newH2Conn(t, nc)
			get := [][2]string{{":method", "GET"}, {":scheme", "https"}, {":authority", "localhost"}, {":path", "/ws"}}
			cc.headers(1, append(get, [2]string{"connection", "upgrade"}, [2]string{"upgrade", "websocket"}))
			cc.headers(3, [][2]string{{":method", "CONNECT"}, {":protocol", "websocket"}, {":scheme", "https"},
				{":authority", "localhost"}, {":path", "/ws"}})
			cc.headers(5, [][2]string{{":method", "CONNECT"}, {":authority", "example.com:443"}})
			cc.headers(7, get)
			// a CONNECT as clients send it: the stream open, for the tunnel
			cc.open(9, [][2]string{{":method", "CONNECT"}, {":authority", "example.com:443"}})
			got := cc.outcomes(1, 3, 5, 7, 9)
			want := map[uint32]string{1: "400 request header \"Connection\" is not valid in HTTP/2\n",
				3: "reset PROTOCOL_ERROR", 5: "405 Method Not Allowed\n", 7: "200 plain", 9: "405 Method Not Allowed\n"}
			for id, w := range want {
				if got[id] != w {
					t.Errorf("stream %d: %q, want %q", id, got[id], w)
				}
			}
			if n := connects.Load(); n != 0 {
				t.Errorf("Connect called %d times over HTTP/2", n)
			}
			if n := hits.Load(); n != 1 {
				t.Errorf("the upstream got %d requests, want 1 (stream 7)", n)
			}
			deadline := time.Now().Add(testTimeout)
			for completed.Load() < 3 && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			if n := completed.Load(); n != 3 {
				t.Errorf("%d Records, want 3 (streams 5, 7 and 9)", n)
			}
		})
	}
}

// h2Conn is a raw HTTP/2 client connection, for requests net/http's
// client refuses to send.
type h2Conn struct {
	t   *testing.T
	fr  *http2.Framer
	enc *hpack.Encoder
	buf bytes.Buffer
}

func newH2Conn(t *testing.T, nc net.Conn) *h2Conn {
	t.Helper()
	if _, err := io.WriteString(nc, http2.ClientPreface); err != nil {
		t.Fatal(err)
	}
	cc := &h2Conn{t: t, fr: http2.NewFramer(nc, nc)}
	cc.fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	cc.enc = hpack.NewEncoder(&cc.buf)
	if err := cc.fr.WriteSettings(); err != nil {
		t.Fatal(err)
	}
	return cc
}

// headers sends a HEADERS frame ending stream id with fields.
func (cc *h2Conn) headers(id uint32, fields [][2]string) {
	cc.buf.Reset()
	for _, f := range fields {
		cc.enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	if err := cc.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: cc.buf.Bytes(),
		EndStream: true, EndHeaders: true}); err != nil {
		cc.t.Fatal(err)
	}
}

// open sends a HEADERS frame opening stream id with fields, leaving the
// stream open (no END_STREAM).
func (cc *h2Conn) open(id uint32, fields [][2]string) {
	cc.buf.Reset()
	for _, f := range fields {
		cc.enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	if err := cc.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: cc.buf.Bytes(),
		EndHeaders: true}); err != nil {
		cc.t.Fatal(err)
	}
}

// outcomes reads frames until each of ids has ended, and returns for
// each "reset CODE" or its status and body ("200 plain").
func (cc *h2Conn) outcomes(ids ...uint32) map[uint32]string {
	out := map[uint32]string{}
	bodies := map[uint32]*strings.Builder{}
	for _, id := range ids {
		bodies[id] = new(strings.Builder)
	}
	for len(out) < len(ids) {
		f, err := cc.fr.ReadFrame()
		if err != nil {
			cc.t.Fatalf("after %v: %v", out, err)
		}
		id := f.Header().StreamID
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				cc.fr.WriteSettingsAck()
			}
		case *http2.RSTStreamFrame:
			if _, ended := out[id]; !ended { // not the NO_ERROR after a response (RFC 9113 §8.1)
				out[id] = "reset " + f.ErrCode.String()
			}
		case *http2.GoAwayFrame:
			cc.t.Fatalf("GOAWAY %v after %v", f.ErrCode, out)
		case *http2.MetaHeadersFrame:
			if s := f.PseudoValue("status"); s != "" && bodies[id] != nil {
				bodies[id].WriteString(s)
			}
			if f.StreamEnded() {
				out[id] = bodies[id].String()
			}
		case *http2.DataFrame:
			if len(f.Data()) > 0 && bodies[id] != nil {
				if !strings.Contains(bodies[id].String(), " ") {
					bodies[id].WriteString(" ")
				}
				bodies[id].Write(f.Data())
			}
			if f.StreamEnded() {
				out[id] = bodies[id].String()
			}
		}
	}
	return out
}

// TestProxyDownstreamH2Reset: an HTTP/2 client that resets its stream in
// the middle of a response ends the exchange: the upstream connection is
// closed (its server's writes fail) rather than pooled with a body half
// read, the Record has the error, and the next request on the same
// client connection is served.
func TestProxyDownstreamH2Reset(t *testing.T) {
	certs := brisktest.NewTLSCerts()
	cut := make(chan error, 1)
	up := backend(t, func(c *brisk.Ctx) {
		if string(c.Request.Path()) != "/endless" {
			c.Response.WriteString("next")
			return
		}
		w := c.BodyWriter()
		chunk := bytes.Repeat([]byte("x"), 16<<10)
		for {
			w.Write(chunk)
			if err := w.Flush(); err != nil {
				cut <- err
				return
			}
		}
	})
	p := &Proxy{Upstreams: []string{up}}
	record := records(t, p)
	dial := h2Front(t, p, certs, true, false)
	tr := &http2.Transport{DialTLSContext: func(ctx context.Context, _, _ string, _ *tls.Config) (net.Conn, error) {
		return dial(ctx)
	}}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr, Timeout: testTimeout}
	resp, err := cl.Get("https://localhost/endless")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(resp.Body, make([]byte, 64<<10)); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close() // RST_STREAM CANCEL
	select {
	case <-cut:
	case <-time.After(testTimeout):
		t.Fatal("the upstream is still writing: its connection was not closed")
	}
	var e *Error
	if rec := record(1); rec.Status != 200 || !errors.As(rec.Err, &e) || e.Phase != PhaseResponse || rec.Sent < 64<<10 {
		t.Errorf("record %+v, want a response-phase error after 64 KiB sent", rec)
	}
	resp, err = cl.Get("https://localhost/next")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "next" {
		t.Errorf("next request: %d %q", resp.StatusCode, body)
	}
}
