package advisories

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/wire"
)

// peer is a hostile HTTP/1.1 server for the client's tests: each request
// it reads (net/http's parser) is answered by respond with raw bytes.
type peer struct {
	addr     string
	mu       sync.Mutex
	requests []*http.Request // every request read, its body consumed
}

// startRaw runs serveConn on each connection accepted on loopback until
// the test ends, when the listener and the connections are closed.
func startRaw(t *testing.T, serveConn func(nc net.Conn)) (addr string, conns *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var open []net.Conn
	var wg sync.WaitGroup
	conns = new(atomic.Int64)
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, nc := range open {
			nc.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			mu.Lock()
			open = append(open, nc)
			mu.Unlock()
			wg.Go(func() {
				defer nc.Close()
				nc.SetDeadline(time.Now().Add(ioTimeout))
				serveConn(nc)
			})
		}
	})
	return ln.Addr().String(), conns
}

// startPeer serves respond on loopback until the test ends. respond
// writes the answer to w; returning false closes the connection.
func startPeer(t *testing.T, respond func(w io.Writer, r *http.Request) bool) *peer {
	t.Helper()
	p := &peer{}
	p.addr, _ = startRaw(t, func(nc net.Conn) {
		br := bufio.NewReader(nc)
		for {
			r, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			io.Copy(io.Discard, r.Body)
			p.mu.Lock()
			p.requests = append(p.requests, r)
			p.mu.Unlock()
			if !respond(nc, r) {
				return
			}
		}
	})
	return p
}

// countingDial is a ClientConfig.Dial that counts the bytes the client
// read from its connections.
func countingDial(n *atomic.Int64) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		nc, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &readCounter{Conn: nc, n: n}, nil
	}
}

type readCounter struct {
	net.Conn
	n *atomic.Int64
}

func (c *readCounter) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// get sends GET uri with c.
func get(c *brisk.Client, uri string) (*brisk.Response, error) {
	var req brisk.Request
	resp := new(brisk.Response)
	req.SetMethod("GET")
	req.SetURI(uri)
	return resp, c.DoTimeout(&req, resp, ioTimeout)
}

// TestCVE_2025_61724_ResponseHeadFlood: net/textproto built a response
// string by concatenating every line, quadratic in the number of lines.
// A server sending a head of 1 000 000 field lines (8 MiB) makes brisk's
// client fail with wire.ErrTooManyFields having read a bounded amount;
// one field line longer than MaxResponseHeaderBytes is
// wire.ErrHeaderTooLarge.
func TestCVE_2025_61724_ResponseHeadFlood(t *testing.T) {
	for _, tc := range []struct {
		name string
		head string
		want error
	}{
		{"many_lines", strings.Repeat("X-A: b\r\n", 1000000), wire.ErrTooManyFields},
		{"one_long_line", "X-A: " + strings.Repeat("b", 8<<20) + "\r\n", wire.ErrHeaderTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := startPeer(t, func(w io.Writer, r *http.Request) bool {
				io.WriteString(w, "HTTP/1.1 200 OK\r\n"+tc.head+"Content-Length: 0\r\n\r\n")
				return false
			})
			var read atomic.Int64
			c := &brisk.Client{ClientConfig: brisk.ClientConfig{Dial: countingDial(&read), MaxIdempotentRetries: -1}}
			_, err := get(c, "http://"+p.addr+"/")
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if n := read.Load(); n > 4*brisk.DefaultMaxResponseHeaderBytes {
				t.Errorf("client read %d bytes, want <= %d", n, 4*brisk.DefaultMaxResponseHeaderBytes)
			}
		})
	}
}

// TestResponseFraming: the HTTP/1.1 advisories of the server side, from
// the client's side: a response whose framing two parsers could read
// differently fails with the wire kind named, never a body read one way.
func TestResponseFraming(t *testing.T) {
	for _, tc := range []struct {
		id, name string
		resp     string
		want     error
	}{
		{"CVE-2022-1705", "te_chunked_twice", "Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", wire.ErrFraming},
		{"fasthttp-1719", "cl_and_te", "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", wire.ErrFraming},
		{"fasthttp-1719", "cl_twice_differ", "Content-Length: 1\r\nContent-Length: 2\r\n\r\nab", wire.ErrContentLength},
		{"CVE-2025-22871", "bare_lf_chunk_size", "Transfer-Encoding: chunked\r\n\r\n1\nx\r\n0\r\n\r\n", wire.ErrLineEnding},
		{"fasthttp-1899", "lf_in_chunk_ext", "Transfer-Encoding: chunked\r\n\r\n1;a\nb\r\nx\r\n0\r\n\r\n", wire.ErrLineEnding},
		{"fasthttp-1794", "nul_in_value", "X: a\x00b\r\nContent-Length: 0\r\n\r\n", wire.ErrFieldValue},
		{"fasthttp-1794", "cr_in_value", "X: a\rb\r\nContent-Length: 0\r\n\r\n", wire.ErrLineEnding},
	} {
		t.Run(tc.id+"/"+tc.name, func(t *testing.T) {
			p := startPeer(t, func(w io.Writer, r *http.Request) bool {
				io.WriteString(w, "HTTP/1.1 200 OK\r\n"+tc.resp)
				return false
			})
			c := &brisk.Client{ClientConfig: brisk.ClientConfig{MaxIdempotentRetries: -1}}
			if _, err := get(c, "http://"+p.addr+"/"); !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
}

// TestCVE_2023_29406_RequestSplitting: net/http's client sent a Host
// field holding CRLF (a header injected into the request); fasthttp PR
// 2182 let CRLF through the request-line setters. brisk's client refuses
// each such request with ErrInvalidRequest or ErrInvalidURI, before a
// byte is sent.
func TestCVE_2023_29406_RequestSplitting(t *testing.T) {
	p := startPeer(t, func(w io.Writer, r *http.Request) bool {
		io.WriteString(w, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
		return true
	})
	base := "http://" + p.addr
	for _, tc := range []struct {
		name string
		set  func(r *brisk.Request)
	}{
		{"host_crlf", func(r *brisk.Request) { r.SetURI(base + "/"); r.SetHost("a\r\nX-Injected: 1") }},
		{"host_space", func(r *brisk.Request) { r.SetURI(base + "/"); r.SetHost("a X-Injected") }},
		{"method_crlf", func(r *brisk.Request) {
			r.SetURI(base + "/")
			r.SetMethod("GET / HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET")
		}},
		{"method_space", func(r *brisk.Request) { r.SetURI(base + "/"); r.SetMethod("GET /x") }},
		{"uri_crlf", func(r *brisk.Request) { r.SetURI(base + "/\r\nX-Injected: 1") }},
		{"target_crlf", func(r *brisk.Request) {
			r.SetURI(base + "/")
			r.SetTarget("/ HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET /")
		}},
		{"field_value_crlf", func(r *brisk.Request) { r.SetURI(base + "/"); r.Header.Set("X", "a\r\nX-Injected: 1") }},
		{"field_name_crlf", func(r *brisk.Request) { r.SetURI(base + "/"); r.Header.Set("X-Injected: 1\r\nY", "a") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var req brisk.Request
			var resp brisk.Response
			req.SetMethod("GET")
			tc.set(&req)
			var c brisk.Client
			err := c.DoTimeout(&req, &resp, ioTimeout)
			if !errors.Is(err, brisk.ErrInvalidRequest) && !errors.Is(err, brisk.ErrInvalidURI) {
				t.Errorf("error %v, want ErrInvalidRequest or ErrInvalidURI", err)
			}
		})
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.requests) != 0 {
		t.Errorf("the server received %d requests, want none", len(p.requests))
	}
}

// TestCVE_2024_45336_RedirectCredentials: net/http's client sent
// Authorization again after a redirect chain left the first origin and
// then redirected within the second one (CVE-2024-45336), and kept
// Proxy-Authorization on a cross-origin redirect (CVE-2025-4673); CVE-
// 2023-45289 forwarded them to a host that was not a subdomain. brisk
// drops Authorization, Proxy-Authorization, Cookie and Cookie2 at the
// first redirect to another origin, for the rest of the chain.
func TestCVE_2024_45336_RedirectCredentials(t *testing.T) {
	second := startPeer(t, func(w io.Writer, r *http.Request) bool {
		if r.URL.Path == "/1" {
			io.WriteString(w, "HTTP/1.1 307 Temporary Redirect\r\nLocation: /2\r\nContent-Length: 0\r\n\r\n")
		} else {
			io.WriteString(w, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
		}
		return true
	})
	first := startPeer(t, func(w io.Writer, r *http.Request) bool {
		io.WriteString(w, "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://"+second.addr+"/1\r\nContent-Length: 0\r\n\r\n")
		return true
	})
	var req brisk.Request
	var resp brisk.Response
	req.SetMethod("GET")
	req.SetURI("http://" + first.addr + "/")
	for _, f := range []string{"Authorization", "Proxy-Authorization", "Cookie", "Cookie2"} {
		req.Header.Set(f, "secret")
	}
	c := brisk.Client{ClientConfig: brisk.ClientConfig{MaxRedirects: 5}}
	if err := c.DoTimeout(&req, &resp, ioTimeout); err != nil || resp.StatusCode() != 200 {
		t.Fatalf("status %d, error %v", resp.StatusCode(), err)
	}
	first.mu.Lock()
	if len(first.requests) != 1 || first.requests[0].Header.Get("Authorization") != "secret" {
		t.Fatalf("the first origin did not get the credentials: %v", first.requests)
	}
	first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	if len(second.requests) != 2 {
		t.Fatalf("the second origin got %d requests, want 2", len(second.requests))
	}
	for _, r := range second.requests {
		for _, f := range []string{"Authorization", "Proxy-Authorization", "Cookie", "Cookie2"} {
			if v := r.Header.Get(f); v != "" {
				t.Errorf("%s at the second origin carries %s: %q", r.URL.Path, f, v)
			}
		}
	}
}

// TestCVE_2024_24791_ExpectContinueFinalStatus: net/http's client,
// answered a final status instead of 100 (Continue), left the connection
// in a state where its next request failed. The body here is itself a
// request: a client that sends it after the final response on a kept
// connection smuggles it. brisk's client must get both answers right and
// the server must never see the smuggled request.
func TestCVE_2024_24791_ExpectContinueFinalStatus(t *testing.T) {
	// The peer answers from the head alone, without reading a body.
	var seen sync.Map
	addr, _ := startRaw(t, func(nc net.Conn) {
		br := bufio.NewReader(nc)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			seen.Store(strings.TrimSpace(line), true)
			if !strings.HasPrefix(line, "GET ") && !strings.HasPrefix(line, "POST ") {
				continue
			}
			for { // the rest of the head
				l, err := br.ReadString('\n')
				if err != nil || l == "\r\n" {
					break
				}
			}
			io.WriteString(nc, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		}
	})

	smuggled := "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n"
	var c brisk.Client
	var req brisk.Request
	var resp brisk.Response
	req.SetMethod("POST")
	req.SetURI("http://" + addr + "/upload")
	req.Header.Set("Expect", "100-continue")
	req.SetBodyString(smuggled)
	if err := c.DoTimeout(&req, &resp, ioTimeout); err != nil || resp.StatusCode() != 200 {
		t.Fatalf("first request: status %d, error %v", resp.StatusCode(), err)
	}
	if r, err := get(&c, "http://"+addr+"/second"); err != nil || r.StatusCode() != 200 || string(r.Body()) != "ok" {
		t.Fatalf("second request: %v", err)
	}
	time.Sleep(50 * time.Millisecond) // let the peer read what followed
	if _, ok := seen.Load("GET /smuggled HTTP/1.1"); ok {
		t.Errorf("the body was sent after the final response, on a kept connection: a request was smuggled")
	}
}

// TestCWE409_ResponseDecompressionBomb: a 100 MiB gzip body of zeros
// (about 100 KiB on the wire) stops at MaxResponseBodyBytes once decoded,
// as ErrBodyTooLarge with an empty body.
func TestCWE409_ResponseDecompressionBomb(t *testing.T) {
	zbuf := gzipBomb()
	p := startPeer(t, func(w io.Writer, r *http.Request) bool {
		fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n", len(zbuf))
		w.Write(zbuf)
		return true
	})
	c := &brisk.Client{ClientConfig: brisk.ClientConfig{MaxResponseBodyBytes: 1 << 20}}
	resp, err := get(c, "http://"+p.addr+"/")
	if !errors.Is(err, brisk.ErrBodyTooLarge) || len(resp.Body()) != 0 {
		t.Fatalf("error %v, body %d bytes: want ErrBodyTooLarge and no body", err, len(resp.Body()))
	}
}

// TestCVE_2026_42507_ClientErrors: the errors of brisk's client never
// carry a hostile server's or proxy's bytes unescaped (net/textproto put
// raw input in its errors): a malformed status line, a malformed field,
// and a proxy refusing CONNECT with a reason phrase holding U+2028 LINE
// SEPARATOR, which log viewers break lines at.
func TestCVE_2026_42507_ClientErrors(t *testing.T) {
	const marker = "INJECTED"
	for _, tc := range []struct{ name, resp string }{
		{"status_line", "HTTP/1.1 2x0 " + marker + "\r\n\r\n"},
		{"field", "HTTP/1.1 200 OK\r\n" + marker + " : x\r\nContent-Length: 0\r\n\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := startPeer(t, func(w io.Writer, r *http.Request) bool { io.WriteString(w, tc.resp); return false })
			c := &brisk.Client{ClientConfig: brisk.ClientConfig{MaxIdempotentRetries: -1}}
			_, err := get(c, "http://"+p.addr+"/")
			if err == nil || strings.Contains(err.Error(), marker) {
				t.Errorf("error %v: want one without the server's bytes", err)
			}
		})
	}
	t.Run("connect_reason", func(t *testing.T) {
		proxy := startPeer(t, func(w io.Writer, r *http.Request) bool {
			io.WriteString(w, "HTTP/1.1 403 Forbidden\u2028"+marker+"\r\nContent-Length: 0\r\n\r\n")
			return false
		})
		u, _ := url.Parse("http://" + proxy.addr)
		c := &brisk.Client{ClientConfig: brisk.ClientConfig{Proxy: brisk.ProxyURL(u), MaxIdempotentRetries: -1}}
		_, err := get(c, "https://example.invalid/")
		for e := err; e != nil; e = errors.Unwrap(e) {
			if strings.Contains(e.Error(), "\u2028") {
				t.Errorf("error %q carries the proxy's reason phrase unescaped", e.Error())
				break
			}
		}
		if !errors.Is(err, brisk.ErrProxy) {
			t.Errorf("error %v, want ErrProxy", err)
		}
	})
}

// TestCVE_2026_25679_IPv6Literal: net/url accepted garbage around a
// bracketed IPv6 host (CVE-2026-25679, CVE-2025-47912), so two parsers
// could disagree on the host. The client refuses each such URI with
// ErrInvalidURI without dialling, and the server answers such a Host
// 400.
func TestCVE_2026_25679_IPv6Literal(t *testing.T) {
	var dials atomic.Int64
	c := &brisk.Client{ClientConfig: brisk.ClientConfig{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return nil, errors.New("dialled " + addr)
	}}}
	hosts := []string{"evil.example[::1]", "[::1]evil.example", "[::1", "::1]", "[::1]]", "[[::1]", "[::1%zone]x"}
	for _, h := range hosts {
		var req brisk.Request
		var resp brisk.Response
		req.SetMethod("GET")
		req.SetURI("http://" + h + "/")
		if err := c.DoTimeout(&req, &resp, ioTimeout); !errors.Is(err, brisk.ErrInvalidURI) {
			t.Errorf("client, host %s: error %v, want ErrInvalidURI", h, err)
		}
	}
	if n := dials.Load(); n != 0 {
		t.Errorf("%d dials, want none", n)
	}
	addr, _ := serve(t, &brisk.Server{Handler: echoTarget})
	for _, h := range hosts {
		if a := exchange(t, addr, "GET / HTTP/1.1\r\nHost: "+h+"\r\n\r\n"); a.status != 400 || !a.closed {
			t.Errorf("server, Host %s: status %d closed=%v, want 400 and closed", h, a.status, a.closed)
		}
	}
}
