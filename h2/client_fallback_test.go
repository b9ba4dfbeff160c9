package h2

import (
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// TestClientH2FallbackHTTP1: a server that chooses HTTP/1.1 by ALPN gets
// HTTP/1.1 requests from a client with HTTP2 set, on connections pooled
// as HTTP/1.1 ones: the first connection, dialled offering h2, is reused.
func TestClientH2FallbackHTTP1(t *testing.T) {
	addr := serve(t, &brisk.Server{Handler: h1Handler}, true) // no HTTP2: ALPN chooses http/1.1
	c, dials := h2BriskClient(t)
	var wg sync.WaitGroup
	for range 10 { // first contact from several requests at once
		wg.Go(func() {
			if resp := get(t, c, "https://"+addr+"/"); string(resp.Body()) != "h1" || resp.Proto() != "HTTP/1.1" {
				t.Errorf("body %q, Proto %q; want h1, HTTP/1.1", resp.Body(), resp.Proto())
			}
		})
	}
	wg.Wait()
	before := dials.n.Load()
	for range 3 {
		resp := get(t, c, "https://"+addr+"/")
		if p := resp.TLS().NegotiatedProtocol; p == "h2" {
			t.Errorf("NegotiatedProtocol %q; want none (the server has no ALPN)", p)
		}
	}
	if n := dials.n.Load(); n != before || n > 10 {
		t.Errorf("%d dials, then %d for 3 sequential requests; want the connections reused", before, n-before)
	}
	// A TLSConfig whose NextProtos leaves h2 out offers no h2.
	_, a := testCert(t)
	c2 := &brisk.Client{ClientConfig: brisk.ClientConfig{HTTP2: &Transport{},
		TLSConfig: &tls.Config{RootCAs: a.Pool, NextProtos: []string{"http/1.1"}}}}
	h2addr := start(t, &brisk.Server{}, Config{}, true)
	if resp := get(t, c2, "https://"+h2addr+"/"); resp.Proto() != "HTTP/1.1" || string(resp.Body()) != "h1" {
		t.Errorf("NextProtos http/1.1: Proto %q, body %q; want HTTP/1.1, h1", resp.Proto(), resp.Body())
	}
}

// refusingServer is an HTTP/2 server written with x/net's Framer: on its
// first connection it answers the first request with GOAWAY (last stream
// 0: nothing processed, RFC 9113 §6.8) and closes; on the others it
// answers each request 200 "second".
func refusingServer(t *testing.T) string { return rawServer(t, true) }

// rawServer is refusingServer, refusing the first connection's request
// only with refuse, and sending settings in its SETTINGS frame.
func rawServer(t *testing.T, refuse bool, settings ...http2.Setting) string {
	c, _ := testCert(t)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{c}, NextProtos: []string{"h2"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for i := 0; ; i++ {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			go serveRaw(nc, refuse && i == 0, settings)
		}
	}()
	return ln.Addr().String()
}

func serveRaw(nc net.Conn, refuse bool, settings []http2.Setting) {
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadFull(nc, make([]byte, len(http2.ClientPreface))); err != nil {
		return
	}
	fr := http2.NewFramer(nc, nc)
	fr.WriteSettings(settings...)
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				fr.WriteSettingsAck()
			}
		case *http2.HeadersFrame:
			if refuse {
				fr.WriteGoAway(0, http2.ErrCodeNo, nil)
				return
			}
			var hb bytes.Buffer
			enc := hpack.NewEncoder(&hb)
			enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: f.StreamID, BlockFragment: hb.Bytes(), EndHeaders: true})
			fr.WriteData(f.StreamID, true, []byte("second"))
		}
	}
}

// TestClientH2NotProcessed: a request the server did not process (a
// GOAWAY naming no stream) is sent again on a new connection, a POST
// too; with retries off the error is ErrNotProcessed.
func TestClientH2NotProcessed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		retries int
		dials   int64
	}{{"retried", 0, 2}, {"retries_off", -1, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			addr := refusingServer(t)
			c, dials := h2BriskClient(t)
			c.MaxIdempotentRetries = tc.retries
			var req brisk.Request
			var resp brisk.Response
			req.SetMethod("POST")
			req.SetURI("https://" + addr + "/")
			req.SetBodyString("x")
			err := c.Do(&req, &resp)
			switch {
			case tc.retries < 0 && !errors.Is(err, brisk.ErrNotProcessed):
				t.Errorf("err %v; want ErrNotProcessed", err)
			case tc.retries >= 0 && (err != nil || string(resp.Body()) != "second"):
				t.Errorf("err %v, body %q; want second", err, resp.Body())
			}
			if n := dials.n.Load(); n != tc.dials {
				t.Errorf("%d dials; want %d", n, tc.dials)
			}
		})
	}
}

// TestClientH2MaxFrameSizeZero (CVE-2026-33814: an HTTP/2 client looped
// on a SETTINGS_MAX_FRAME_SIZE of 0): the settings are refused as a
// connection error (RFC 9113 §6.5.2: below 16384), and the request fails
// at once.
func TestClientH2MaxFrameSizeZero(t *testing.T) {
	addr := rawServer(t, false, http2.Setting{ID: http2.SettingMaxFrameSize, Val: 0})
	c, _ := h2BriskClient(t)
	var req brisk.Request
	var resp brisk.Response
	req.SetURI("https://" + addr + "/")
	start := time.Now()
	err := c.DoTimeout(&req, &resp, 5*time.Second)
	if !errors.Is(err, brisk.ErrConnectionClosed) && !errors.Is(err, brisk.ErrNotProcessed) || errors.Is(err, brisk.ErrTimeout) {
		t.Errorf("err %v after %v; want the connection's error, at once", err, time.Since(start))
	}
}

// TestClientH2Interim: interim responses (103 Early Hints) reach the
// request's handler (Request.SetInterimHandler) with their fields; an
// error from the handler ends the exchange with that error.
func TestClientH2Interim(t *testing.T) {
	p := startNetHTTP(t)
	c, _ := h2BriskClient(t)
	var req brisk.Request
	var resp brisk.Response
	req.SetURI(p.url + "/hints")
	var got []string
	req.SetInterimHandler(func(code int, h *brisk.Header) error {
		got = append(got, strconv.Itoa(code)+" "+string(h.Get("Link")))
		return nil
	})
	if err := c.Do(&req, &resp); err != nil || string(resp.Body()) != "final" {
		t.Fatalf("err %v, body %q", err, resp.Body())
	}
	if want := []string{"103 </style.css>; rel=preload"}; !slices.Equal(got, want) {
		t.Errorf("interim responses %q; want %q", got, want)
	}
	stop := errors.New("stop at the hint")
	req.SetInterimHandler(func(int, *brisk.Header) error { return stop })
	if err := c.Do(&req, &resp); !errors.Is(err, stop) {
		t.Errorf("err %v; want the handler's", err)
	}
}

// TestClientH2ConnLifetime: a HostClient's HTTP/2 connection older than
// MaxConnLifetime takes no new streams (the next request dials), and
// CloseIdleConnections closes a connection without open streams.
func TestClientH2ConnLifetime(t *testing.T) {
	p := startNetHTTP(t)
	_, a := testCert(t)
	d := &dialCounter{}
	hc := &brisk.HostClient{Addr: strings.TrimPrefix(p.url, "https://"), TLS: true, ClientConfig: brisk.ClientConfig{
		HTTP2: &Transport{}, TLSConfig: &tls.Config{RootCAs: a.Pool}, Dial: d.dial, MaxConnLifetime: 200 * time.Millisecond}}
	do := func() {
		t.Helper()
		var req brisk.Request
		var resp brisk.Response
		req.SetTarget("/get")
		if err := hc.Do(&req, &resp); err != nil || resp.Proto() != "HTTP/2.0" {
			t.Fatalf("err %v, Proto %q", err, resp.Proto())
		}
	}
	do()
	do()
	if n := d.n.Load(); n != 1 {
		t.Errorf("%d dials for 2 requests; want 1", n)
	}
	time.Sleep(300 * time.Millisecond)
	do()
	if n := d.n.Load(); n != 2 {
		t.Errorf("%d dials after MaxConnLifetime; want 2", n)
	}
	hc.CloseIdleConnections()
	do()
	if n := d.n.Load(); n != 3 {
		t.Errorf("%d dials after CloseIdleConnections; want 3", n)
	}
}

// TestClientH2InvalidRequest: a request HTTP/1.1 would refuse is refused
// on HTTP/2 too, before anything is sent: ErrInvalidRequest.
func TestClientH2InvalidRequest(t *testing.T) {
	p := startNetHTTP(t)
	c, _ := h2BriskClient(t)
	for _, tc := range []struct {
		name string
		set  func(*brisk.Request)
	}{
		{"field_value_crlf", func(r *brisk.Request) { r.Header.Set("X-Split", "a\r\nInjected: b") }},
		{"field_name_space", func(r *brisk.Request) { r.Header.Set("Bad Name", "v") }},
		{"method_not_token", func(r *brisk.Request) { r.SetMethod("GE T") }},
		{"trailer_value_lf", func(r *brisk.Request) {
			r.SetMethod("POST")
			r.SetBodyStream(strings.NewReader("body"), -1)
			r.Trailer.Set("X-T", "a\nb")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var req brisk.Request
			var resp brisk.Response
			req.SetURI(p.url + "/get")
			tc.set(&req)
			if err := c.Do(&req, &resp); !errors.Is(err, brisk.ErrInvalidRequest) {
				t.Errorf("err %v; want ErrInvalidRequest", err)
			}
		})
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// TestClientH2ExpectContinue: with "Expect: 100-continue" a body waits
// for the server's go-ahead (ExpectContinueTimeout): a 413 arrives
// before any of it is sent, a 100 (Continue) lets it go.
func TestClientH2ExpectContinue(t *testing.T) {
	p := startNetHTTP(t)
	c, _ := h2BriskClient(t)
	c.ExpectContinueTimeout = time.Minute
	for _, tc := range []struct {
		size   int64
		status int
		read   int64
	}{{1 << 20, 413, 0}, {1000, 200, 1000}} {
		var req brisk.Request
		var resp brisk.Response
		req.SetMethod("POST")
		req.SetURI(p.url + "/small")
		req.Header.Set("Expect", "100-continue")
		body := &countingReader{r: strings.NewReader(strings.Repeat("x", int(tc.size)))}
		req.SetBodyStream(body, tc.size)
		start := time.Now()
		if err := c.DoTimeout(&req, &resp, 20*time.Second); err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode() != tc.status || body.n.Load() != tc.read || time.Since(start) > 10*time.Second {
			t.Errorf("size %d: status %d, %d bytes read in %v; want %d, %d", tc.size, resp.StatusCode(), body.n.Load(), time.Since(start), tc.status, tc.read)
		}
	}
}
