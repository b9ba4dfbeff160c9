package h2

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/certs"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

//lint:file-ignore SA1019 x/net v0.62.0 deprecates http2.Transport for net/http's; these tests keep the x/net client that the server side is tested against

var (
	caOnce sync.Once
	ca     *certs.Authority
	cert   tls.Certificate
	caErr  error
)

// testCert returns a server certificate for 127.0.0.1 and localhost and
// the pool of the CA that issued it.
func testCert(t testing.TB) (tls.Certificate, *certs.Authority) {
	t.Helper()
	caOnce.Do(func() {
		if ca, caErr = certs.NewAuthority("h2 test CA"); caErr == nil {
			cert, caErr = ca.Server("127.0.0.1", "localhost")
		}
	})
	if caErr != nil {
		t.Fatal(caErr)
	}
	return cert, ca
}

// h1Handler answers brisk's HTTP/1.1 requests with "h1".
func h1Handler(c *brisk.Ctx) { c.Response.SetBodyString("h1") }

// h2Handler answers HTTP/2 requests with "h2", the protocol and the
// length of the body read.
var h2Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	n, err := io.Copy(io.Discard, r.Body)
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
			return
		}
	}
	io.WriteString(w, "h2 "+r.Proto+" tls="+boolString(r.TLS != nil)+" read="+strconv.FormatInt(n, 10))
})

func boolString(b bool) string { return map[bool]string{false: "no", true: "yes"}[b] }

// start serves srv with HTTP/2 (conf, Handler h2Handler unless set) on
// 127.0.0.1:0, with TLS when tlsOn, until the test ends. It returns the
// address.
func start(t *testing.T, srv *brisk.Server, conf Config, tlsOn bool) string {
	t.Helper()
	if srv.Handler == nil {
		srv.Handler = h1Handler
	}
	if srv.Logger == nil {
		srv.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if conf.Handler == nil {
		conf.Handler = h2Handler
	}
	if err := Configure(srv, conf); err != nil {
		t.Fatal(err)
	}
	return serve(t, srv, tlsOn)
}

// serve serves the configured srv on 127.0.0.1:0, with TLS when tlsOn,
// until the test ends, and returns the address.
func serve(t *testing.T, srv *brisk.Server, tlsOn bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	if tlsOn {
		c, _ := testCert(t)
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{c}}
		go func() { done <- srv.ServeTLS(ln, "", "") }()
	} else {
		go func() { done <- srv.Serve(ln) }()
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-done; !errors.Is(err, brisk.ErrServerClosed) {
			t.Errorf("Serve returned %v", err)
		}
	})
	return ln.Addr().String()
}

// h2Client is an HTTP/2-only client: over TLS trusting the test CA, or
// h2c with prior knowledge.
func h2Client(t *testing.T, tlsOn bool) *http.Client {
	tr := &http2.Transport{}
	if tlsOn {
		_, a := testCert(t)
		tr.TLSClientConfig = &tls.Config{RootCAs: a.Pool}
	} else {
		tr.AllowHTTP = true
		tr.DialTLSContext = func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		}
	}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

// do sends req with c and returns the status code and body.
func do(t *testing.T, c *http.Client, req *http.Request) (int, string) {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustRequest(t *testing.T, method, url string, body io.Reader) *http.Request {
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// http11 sends a GET over HTTP/1.1 on nc and returns the body.
func http11(t *testing.T, nc net.Conn) string {
	t.Helper()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(nc, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestTLS: ALPN offers h2 and http/1.1; h2 goes to the HTTP/2 server,
// http/1.1 (or no ALPN) stays on brisk's own path.
func TestTLS(t *testing.T) {
	addr := start(t, &brisk.Server{}, Config{}, true)
	code, body := do(t, h2Client(t, true), mustRequest(t, "POST", "https://"+addr+"/", strings.NewReader("hello")))
	if want := "h2 HTTP/2.0 tls=yes read=5"; code != 200 || body != want {
		t.Fatalf("HTTP/2: %d %q, want 200 %q", code, body, want)
	}
	_, a := testCert(t)
	for _, protos := range [][]string{{"http/1.1"}, nil} {
		tc, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: a.Pool, NextProtos: protos})
		if err != nil {
			t.Fatal(err)
		}
		defer tc.Close()
		if body := http11(t, tc); body != "h1" {
			t.Fatalf("ALPN %q: body %q, want h1", protos, body)
		}
	}
}

// TestTLSNextProtos: TLSConfig.NextProtos set by the user is kept, so
// []string{"http/1.1"} turns HTTP/2 off.
func TestTLSNextProtos(t *testing.T) {
	c, a := testCert(t)
	srv := &brisk.Server{Handler: h1Handler, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if err := Configure(srv, Config{Handler: h2Handler}); err != nil {
		t.Fatal(err)
	}
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{c}, NextProtos: []string{"http/1.1"}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.ServeTLS(ln, "", "")
	defer srv.Shutdown(context.Background())
	tc, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{RootCAs: a.Pool, NextProtos: []string{"h2", "http/1.1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	if p := tc.ConnectionState().NegotiatedProtocol; p != "http/1.1" {
		t.Fatalf("ALPN chose %q, want http/1.1", p)
	}
}

// TestH2C: with H2C, a cleartext connection opening with the preface is
// HTTP/2, whole or split byte by byte; others stay HTTP/1.1.
func TestH2C(t *testing.T) {
	addr := start(t, &brisk.Server{H2C: true}, Config{}, false)
	if code, body := do(t, h2Client(t, false), mustRequest(t, "GET", "http://"+addr+"/", nil)); code != 200 || body != "h2 HTTP/2.0 tls=no read=0" {
		t.Fatalf("h2c: %d %q", code, body)
	}
	nc := dial(t, addr)
	if body := http11(t, nc); body != "h1" {
		t.Fatalf("HTTP/1.1 with H2C on: body %q", body)
	}

	nc = dial(t, addr)
	for i := range len(http2.ClientPreface) {
		if _, err := io.WriteString(nc, http2.ClientPreface[i:i+1]); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	fr := http2.NewFramer(nc, nc)
	fr.WriteSettings()
	if _, err := readSettings(t, fr); err != nil {
		t.Fatal(err)
	}
}

// TestH2COff: without H2C the preface is refused as an HTTP/1.1 request
// line of version 2.0: 505 (HTTP Version Not Supported).
func TestH2COff(t *testing.T) {
	addr := start(t, &brisk.Server{}, Config{}, false)
	nc := dial(t, addr)
	io.WriteString(nc, http2.ClientPreface)
	resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 505 {
		t.Fatalf("status %d, want 505", resp.StatusCode)
	}
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	return nc
}

// readSettings reads frames until the server's first SETTINGS frame and
// returns its values by ID.
func readSettings(t *testing.T, fr *http2.Framer) (map[http2.SettingID]uint32, error) {
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return nil, err
		}
		sf, ok := f.(*http2.SettingsFrame)
		if !ok || sf.IsAck() {
			continue
		}
		m := map[http2.SettingID]uint32{}
		sf.ForeachSetting(func(s http2.Setting) error { m[s.ID] = s.Val; return nil })
		return m, nil
	}
}

// h2cConn opens an h2c connection to addr and exchanges SETTINGS; it
// returns the framer and the server's settings.
func h2cConn(t *testing.T, addr string) (*http2.Framer, map[http2.SettingID]uint32) {
	t.Helper()
	nc := dial(t, addr)
	io.WriteString(nc, http2.ClientPreface)
	fr := http2.NewFramer(nc, nc)
	fr.WriteSettings()
	settings, err := readSettings(t, fr)
	if err != nil {
		t.Fatal(err)
	}
	fr.WriteSettingsAck()
	return fr, settings
}

// TestLimits: the server's SETTINGS carry brisk's MaxHeaderBytes (plus
// x/net's 320-byte allowance) and Config.MaxConcurrentStreams.
func TestLimits(t *testing.T) {
	addr := start(t, &brisk.Server{H2C: true, MaxHeaderBytes: 1000}, Config{MaxConcurrentStreams: 7}, false)
	_, settings := h2cConn(t, addr)
	if got := settings[http2.SettingMaxConcurrentStreams]; got != 7 {
		t.Errorf("MAX_CONCURRENT_STREAMS %d, want 7", got)
	}
	if got := settings[http2.SettingMaxHeaderListSize]; got != 1000+320 {
		t.Errorf("MAX_HEADER_LIST_SIZE %d, want 1320", got)
	}
}

// TestMaxBodyBytes: a body over MaxBodyBytes is refused with 413, by its
// Content-Length or when it is read.
func TestMaxBodyBytes(t *testing.T) {
	addr := start(t, &brisk.Server{H2C: true, MaxBodyBytes: 10}, Config{}, false)
	c := h2Client(t, false)
	if code, body := do(t, c, mustRequest(t, "POST", "http://"+addr+"/", strings.NewReader("0123456789"))); code != 200 || body != "h2 HTTP/2.0 tls=no read=10" {
		t.Fatalf("10 bytes: %d %q", code, body)
	}
	if code, _ := do(t, c, mustRequest(t, "POST", "http://"+addr+"/", strings.NewReader("0123456789a"))); code != 413 {
		t.Fatalf("11 bytes with a length: %d, want 413", code)
	}
	req := mustRequest(t, "POST", "http://"+addr+"/", io.MultiReader(strings.NewReader("0123456789a")))
	req.ContentLength = -1 // sent without content-length
	if code, body := do(t, c, req); code != 413 || body != "too large\n" {
		t.Fatalf("11 bytes without a length: %d %q, want 413", code, body)
	}
}

// TestShutdownGoAway: Shutdown sends GOAWAY (NO_ERROR) on an HTTP/2
// connection, lets its open stream finish, and returns once it closed.
func TestShutdownGoAway(t *testing.T) {
	srv := &brisk.Server{H2C: true, Handler: h1Handler, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	done := func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "done") }
	if err := goAwayOpenStream(t, srv, done, srv.Shutdown, 5*time.Second); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}

// goAwayOpenStream configures srv with an HTTP/2 handler that holds
// stream 1 open until the client has read a GOAWAY, then replies with
// respond; serves srv on loopback, opens stream 1 and, once its handler
// has entered, calls stop with a context of the given timeout. It checks
// that the GOAWAY is NO_ERROR with last stream 1 and that stream 1 then
// carries "done", and returns stop's error.
func goAwayOpenStream(t *testing.T, srv *brisk.Server, respond http.HandlerFunc, stop func(context.Context) error, timeout time.Duration) error {
	t.Helper()
	release := make(chan struct{})
	entered := make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		respond(w, r)
	})
	if err := Configure(srv, Config{Handler: slow}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	fr, _ := h2cConn(t, ln.Addr().String())
	var hb bytes.Buffer
	enc := hpack.NewEncoder(&hb)
	for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", "x"}, {":path", "/"}} {
		enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: hb.Bytes(), EndStream: true, EndHeaders: true})
	<-entered

	stopped := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		stopped <- stop(ctx)
	}()
	var goAway *http2.GoAwayFrame
	var data []byte
	for goAway == nil || data == nil {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatalf("reading frames: %v (GOAWAY %v, data %q)", err, goAway, data)
		}
		switch f := f.(type) {
		case *http2.GoAwayFrame:
			goAway = f
			close(release) // the GOAWAY came while stream 1 was open
		case *http2.DataFrame:
			data = append(data, f.Data()...)
		}
	}
	if goAway.ErrCode != http2.ErrCodeNo || goAway.LastStreamID != 1 {
		t.Errorf("GOAWAY %v last stream %d, want NO_ERROR, 1", goAway.ErrCode, goAway.LastStreamID)
	}
	if string(data) != "done" {
		t.Errorf("stream 1 data %q, want done", data)
	}
	return <-stopped
}
