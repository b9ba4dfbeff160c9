package h2

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/wire"
)

// h2Peer is an HTTP/2 server over TLS that the client tests talk to.
type h2Peer struct {
	url   string     // "https://127.0.0.1:port"
	drain func()     // sends GOAWAY on every connection; nil: not supported
	kill  func()     // closes every connection at once
	state *peerState // what the handler saw

	// resets, rather than sends, a response head over the client's
	// SETTINGS_MAX_HEADER_LIST_SIZE (x/net's server does)
	honorsHeaderLimit bool
	// a reverse proxy in front of peerHandler, which sees HTTP/1.1
	// requests with the proxy's Host, without TE, and no request
	// trailers: nginx takes trailers after a request body for a
	// protocol error
	proxy bool
}

// peerState is what the test handler (peerHandler) records.
type peerState struct {
	waiting  atomic.Int64  // requests of /wait in their handler
	canceled chan struct{} // closed... see /slow: receives when a request's context ended
	slowIn   chan struct{} // receives when /slow is entered
	release  chan struct{} // closed to let /slow answer
	killed   atomic.Bool   // /killonce killed the connections once
	kill     func()
}

func newPeerState() *peerState {
	return &peerState{canceled: make(chan struct{}, 16), slowIn: make(chan struct{}, 16), release: make(chan struct{})}
}

// pattern returns n bytes of a repeating pattern (the /download body).
func pattern(n int) []byte { return bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n] }

// peerHandler serves the client tests' paths, as an http.Handler (served
// by net/http's HTTP/2 server, and by brisk's through FromHTTP).
func peerHandler(st *peerState) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/get", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "proto=%s ua=%q host=%s te=%q conn=%q", r.Proto, r.Header.Get("User-Agent"), r.Host, r.Header.Get("Te"), r.Header.Get("X-Hop"))
	})
	mux.HandleFunc("/upload", func(w http.ResponseWriter, r *http.Request) {
		h := sha256.New()
		n, err := io.Copy(h, r.Body)
		fmt.Fprintf(w, "n=%d sum=%s err=%v trailer=%q", n, hex.EncodeToString(h.Sum(nil)), err, r.Trailer.Get("X-Sum"))
	})
	mux.HandleFunc("/download", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		chunk := pattern(1 << 20)
		for n > 0 {
			k := min(n, len(chunk))
			if _, err := w.Write(chunk[:k]); err != nil {
				return
			}
			n -= k
		}
	})
	mux.HandleFunc("/wait", func(w http.ResponseWriter, r *http.Request) {
		want, _ := strconv.ParseInt(r.URL.Query().Get("n"), 10, 64)
		st.waiting.Add(1)
		deadline := time.Now().Add(10 * time.Second)
		for st.waiting.Load() < want && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		fmt.Fprintf(w, "together=%v", st.waiting.Load() >= want)
	})
	mux.HandleFunc("/trailer", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Trailer", "X-Checksum")
		io.WriteString(w, "body")
		w.Header().Set("X-Checksum", "c0ffee")
	})
	mux.HandleFunc("/bighead", func(w http.ResponseWriter, r *http.Request) {
		for i := range 40 { // 80 KiB, each field under the limit
			w.Header().Set("X-Big-"+strconv.Itoa(i), strings.Repeat("b", 2000))
		}
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		st.slowIn <- struct{}{}
		select {
		case <-r.Context().Done():
			st.canceled <- struct{}{}
		case <-st.release:
			io.WriteString(w, "released")
		case <-time.After(10 * time.Second):
		}
	})
	mux.HandleFunc("/hints", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", "</style.css>; rel=preload")
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Del("Link")
		io.WriteString(w, "final")
	})
	mux.HandleFunc("/small", func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > 1024 {
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
			return
		}
		n, _ := io.Copy(io.Discard, r.Body)
		fmt.Fprintf(w, "read=%d", n)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/get?from=redirect", http.StatusFound)
	})
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			io.WriteString(w, "not asked")
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		io.WriteString(zw, strings.Repeat("gzipped over h2. ", 1000))
		zw.Close()
	})
	mux.HandleFunc("/killonce", func(w http.ResponseWriter, r *http.Request) {
		if st.killed.CompareAndSwap(false, true) {
			st.kill()
			<-r.Context().Done()
			return
		}
		io.WriteString(w, "second")
	})
	return mux
}

// connListener counts and keeps the connections it accepts.
type connListener struct {
	net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func (l *connListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.conns = append(l.conns, c)
		l.mu.Unlock()
	}
	return c, err
}

func (l *connListener) killAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Close()
	}
}

// startNetHTTP serves peerHandler with net/http's HTTP/2 server.
func startNetHTTP(t *testing.T) *h2Peer {
	st := newPeerState()
	ts := httptest.NewUnstartedServer(peerHandler(st))
	ts.EnableHTTP2 = true
	c, _ := testCert(t)
	ts.TLS = &tls.Config{Certificates: []tls.Certificate{c}}
	ts.Config.ErrorLog = log.New(io.Discard, "", 0)
	ts.StartTLS()
	t.Cleanup(func() { close(st.release); ts.Close() })
	st.kill = ts.CloseClientConnections
	return &h2Peer{url: ts.URL, kill: st.kill, state: st}
}

// startBrisk serves peerHandler with brisk's HTTP/2 server (package h2,
// the brisk handler FromHTTP(peerHandler) through the bridge).
func startBrisk(t *testing.T) *h2Peer {
	st := newPeerState()
	srv := &brisk.Server{Handler: brisk.FromHTTP(peerHandler(st)), MaxBodyBytes: -1,
		// the data rates off: a loaded machine under -race stalls 50 MB
		// bodies past them (the client is under test, not the rates)
		MinRequestBodyRateGrace: -1, MinResponseRateGrace: -1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if err := Configure(srv, Config{}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &connListener{Listener: ln}
	c, _ := testCert(t)
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{c}}
	done := make(chan error, 1)
	go func() { done <- srv.ServeTLS(cl, "", "") }()
	t.Cleanup(func() {
		close(st.release)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		<-done
	})
	st.kill = cl.killAll
	drain := srv.HTTP2.(interface{ Drain() }).Drain
	return &h2Peer{url: "https://" + ln.Addr().String(), drain: drain, kill: st.kill, state: st, honorsHeaderLimit: true}
}

// dialCounter counts a client's dials.
type dialCounter struct{ n atomic.Int64 }

func (d *dialCounter) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d.n.Add(1)
	var nd net.Dialer
	return nd.DialContext(ctx, network, addr)
}

// h2BriskClient returns a brisk client with HTTP/2 trusting the test CA,
// counting its dials.
func h2BriskClient(t *testing.T) (*brisk.Client, *dialCounter) {
	_, a := testCert(t)
	d := &dialCounter{}
	c := &brisk.Client{ClientConfig: brisk.ClientConfig{
		HTTP2:        &Transport{},
		TLSConfig:    &tls.Config{RootCAs: a.Pool},
		Dial:         d.dial,
		MaxRedirects: 3,
		Timeout:      20 * time.Second,
	}}
	t.Cleanup(c.CloseIdleConnections)
	return c, d
}

// get sends a GET of url and returns the response, failing the test on
// error.
func get(t *testing.T, c *brisk.Client, url string) *brisk.Response {
	t.Helper()
	var req brisk.Request
	resp := new(brisk.Response)
	req.SetURI(url)
	if err := c.Do(&req, resp); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp
}

// h2Cases are the client's cases against one HTTP/2 server, run on one
// client, so on one connection.
var h2Cases = []struct {
	name string
	run  func(*testing.T, *brisk.Client, *h2Peer)
}{
	{"get", testH2Get},
	{"upload_50MB", testH2Upload},
	{"download_streamed", testH2Download},
	{"concurrent_100", testH2Concurrent},
	{"trailers", testH2Trailers},
	{"head_too_large", testH2HeadLimit},
	{"timeout", testH2Timeout},
	{"cancel", testH2Cancel},
	{"redirect", testH2Redirect},
	{"gzip", testH2Gzip},
}

// runH2Cases runs h2Cases against p and checks that they took one
// connection.
func runH2Cases(t *testing.T, p *h2Peer) {
	c, dials := h2BriskClient(t)
	for _, tc := range h2Cases {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, c, p) })
	}
	if n := dials.n.Load(); n != 1 {
		t.Errorf("%d connections dialled; want 1 (one multiplexed connection)", n)
	}
}

// TestClientH2 runs the client over HTTP/2 against brisk's HTTP/2 server
// and net/http's (nginx: TestClientH2Nginx).
func TestClientH2(t *testing.T) {
	for _, peer := range []struct {
		name  string
		start func(*testing.T) *h2Peer
	}{{"brisk", startBrisk}, {"nethttp", startNetHTTP}} {
		t.Run(peer.name, func(t *testing.T) {
			p := peer.start(t)
			runH2Cases(t, p)
			t.Run("goaway", func(t *testing.T) { testH2GoAway(t, p) })
			t.Run("killed", func(t *testing.T) { testH2Killed(t, p) })
		})
	}
}

func testH2Get(t *testing.T, c *brisk.Client, p *h2Peer) {
	var req brisk.Request
	var resp brisk.Response
	req.SetURI(p.url + "/get")
	req.Header.Set("Connection", "X-Hop")
	req.Header.Set("X-Hop", "dropped")
	req.Header.Set("TE", "trailers")
	if err := c.Do(&req, &resp); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(p.url, "https://")
	want := fmt.Sprintf(`proto=HTTP/2.0 ua="" host=%s te="trailers" conn=""`, host)
	got := string(resp.Body())
	if p.proxy {
		want = `proto=HTTP/1.1 ua="" host=* te="" conn=""`
		got = regexp.MustCompile(`host=\S+`).ReplaceAllString(got, "host=*")
	}
	if resp.StatusCode() != 200 || got != want {
		t.Errorf("status %d, body %q; want 200, %q", resp.StatusCode(), got, want)
	}
	if resp.Proto() != "HTTP/2.0" || resp.TLS() == nil || resp.TLS().NegotiatedProtocol != "h2" || len(resp.Reason()) != 0 {
		t.Errorf("Proto %q, TLS %v, Reason %q; want HTTP/2.0, h2, empty", resp.Proto(), resp.TLS() != nil, resp.Reason())
	}
	if cl := resp.Header.Get("Content-Length"); string(cl) != strconv.Itoa(len(resp.Body())) {
		t.Errorf("Content-Length %q; want %d", cl, len(resp.Body()))
	}
}

// genReader yields n bytes of pattern(1 MiB) without holding them.
type genReader struct {
	n, off int64
	closed atomic.Bool
}

var mib = pattern(1 << 20)

func (g *genReader) Read(p []byte) (int, error) {
	if g.off >= g.n {
		return 0, io.EOF
	}
	k := copy(p[:min(int64(len(p)), g.n-g.off)], mib[g.off%int64(len(mib)):])
	g.off += int64(k)
	return k, nil
}

func (g *genReader) Close() error { g.closed.Store(true); return nil }

func sumOf(n int64) string {
	h := sha256.New()
	io.Copy(h, &genReader{n: n})
	return hex.EncodeToString(h.Sum(nil))
}

func testH2Upload(t *testing.T, c *brisk.Client, p *h2Peer) {
	const n = 50 << 20
	sum := sumOf(n)
	for _, size := range []int64{n, -1} {
		var req brisk.Request
		var resp brisk.Response
		req.SetMethod("POST")
		req.SetURI(p.url + "/upload")
		body := &genReader{n: n}
		req.SetBodyStream(body, size)
		trailer := size < 0 && !p.proxy
		if trailer {
			req.Trailer.Set("X-Sum", "end")
		}
		if err := c.Do(&req, &resp); err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		want := fmt.Sprintf("n=%d sum=%s err=<nil> trailer=%q", n, sum, map[bool]string{true: "end"}[trailer])
		if string(resp.Body()) != want || !body.closed.Load() {
			t.Errorf("size %d: %q, body closed %v; want %q", size, resp.Body(), body.closed.Load(), want)
		}
	}
}

func testH2Download(t *testing.T, c *brisk.Client, p *h2Peer) {
	const n = 50 << 20 // over MaxResponseBodyBytes: streamed bodies are not limited
	var req brisk.Request
	var resp brisk.Response
	req.SetURI(p.url + "/download?n=" + strconv.Itoa(n))
	s, err := c.DoStream(context.Background(), &req, &resp)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := sha256.New()
	got, err := io.CopyBuffer(h, s, make([]byte, 64<<10))
	if err != nil || got != n || hex.EncodeToString(h.Sum(nil)) != sumOf(n) {
		t.Errorf("read %d bytes, err %v, sum match %v; want %d", got, err, hex.EncodeToString(h.Sum(nil)) == sumOf(n), n)
	}
	// Do: the same body is over MaxResponseBodyBytes (16 MiB).
	err = c.Do(&req, &resp)
	if !errors.Is(err, brisk.ErrBodyTooLarge) || len(resp.Body()) != 0 {
		t.Errorf("Do: %v, %d bytes; want ErrBodyTooLarge, none", err, len(resp.Body()))
	}
}

func testH2Concurrent(t *testing.T, c *brisk.Client, p *h2Peer) {
	const n = 100
	p.state.waiting.Store(0)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			var req brisk.Request
			var resp brisk.Response
			req.SetURI(p.url + "/wait?n=" + strconv.Itoa(n))
			if err := c.Do(&req, &resp); err != nil {
				errs <- err
			} else if string(resp.Body()) != "together=true" {
				errs <- fmt.Errorf("body %q", resp.Body())
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func testH2Trailers(t *testing.T, c *brisk.Client, p *h2Peer) {
	var req brisk.Request
	var resp brisk.Response
	req.SetURI(p.url + "/trailer")
	if err := c.Do(&req, &resp); err != nil {
		t.Fatal(err)
	}
	if string(resp.Body()) != "body" || string(resp.Trailer.Get("X-Checksum")) != "c0ffee" {
		t.Errorf("body %q, trailer X-Checksum %q; want body, c0ffee", resp.Body(), resp.Trailer.Get("X-Checksum"))
	}
	s, err := c.DoStream(context.Background(), &req, &resp)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(s)
	s.Close()
	if err != nil || string(b) != "body" || string(resp.Trailer.Get("X-Checksum")) != "c0ffee" {
		t.Errorf("stream: %q, %v, trailer %q", b, err, resp.Trailer.Get("X-Checksum"))
	}
}

func testH2HeadLimit(t *testing.T, c *brisk.Client, p *h2Peer) {
	var req brisk.Request
	var resp brisk.Response
	req.SetURI(p.url + "/bighead")
	err := c.Do(&req, &resp)
	want := error(wire.ErrHeaderTooLarge)
	if p.honorsHeaderLimit {
		want = brisk.ErrConnectionClosed // the server reset the stream
	}
	if !errors.Is(err, want) || resp.StatusCode() != 0 {
		t.Errorf("err %v, status %d; want %v, 0", err, resp.StatusCode(), want)
	}
	get(t, c, p.url+"/get") // the connection is still usable
}

func testH2Timeout(t *testing.T, c *brisk.Client, p *h2Peer) {
	var req brisk.Request
	var resp brisk.Response
	req.SetURI(p.url + "/slow")
	start := time.Now()
	err := c.DoTimeout(&req, &resp, 200*time.Millisecond)
	<-p.state.slowIn
	if !errors.Is(err, brisk.ErrTimeout) || time.Since(start) > 5*time.Second {
		t.Errorf("err %v after %v; want ErrTimeout", err, time.Since(start))
	}
	select {
	case <-p.state.canceled: // the stream was reset
	case <-time.After(5 * time.Second):
		t.Error("the handler's context was not cancelled")
	}
	get(t, c, p.url+"/get")
}

func testH2Cancel(t *testing.T, c *brisk.Client, p *h2Peer) {
	var req brisk.Request
	var resp brisk.Response
	req.SetURI(p.url + "/slow")
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-p.state.slowIn; cancel() }()
	err := c.DoContext(ctx, &req, &resp)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v; want context.Canceled", err)
	}
	select {
	case <-p.state.canceled:
	case <-time.After(5 * time.Second):
		t.Error("the handler's context was not cancelled")
	}
	// A streamed body cancelled mid-way.
	req.SetURI(p.url + "/download?n=" + strconv.Itoa(8<<20))
	ctx, cancel = context.WithCancel(context.Background())
	s, err := c.DoStream(ctx, &req, &resp)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1000)
	if _, err := io.ReadFull(s, buf); err != nil {
		t.Fatal(err)
	}
	cancel()
	_, err = io.Copy(io.Discard, s)
	s.Close()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("stream read after cancel: %v; want context.Canceled", err)
	}
	get(t, c, p.url+"/get")
}

func testH2Redirect(t *testing.T, c *brisk.Client, p *h2Peer) {
	var req brisk.Request
	var resp brisk.Response
	req.SetURI(p.url + "/redirect")
	if err := c.Do(&req, &resp); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode() != 200 || !strings.HasPrefix(string(resp.Body()), "proto=HTTP/") || !strings.HasSuffix(string(req.Target()), "/get?from=redirect") {
		t.Errorf("status %d, body %q, URI %q", resp.StatusCode(), resp.Body(), req.Target())
	}
}

func testH2Gzip(t *testing.T, c *brisk.Client, p *h2Peer) {
	want := strings.Repeat("gzipped over h2. ", 1000)
	resp := get(t, c, p.url+"/gzip")
	if string(resp.Body()) != want || resp.Header.Has("Content-Encoding") {
		t.Errorf("body %.40q (%d bytes), Content-Encoding %q", resp.Body(), len(resp.Body()), resp.Header.Get("Content-Encoding"))
	}
	var req brisk.Request
	req.SetURI(p.url + "/gzip")
	s, err := c.DoStream(context.Background(), &req, resp)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(s)
	s.Close()
	if err != nil || string(b) != want {
		t.Errorf("stream: %d bytes, %v", len(b), err)
	}
}

// testH2GoAway: a GOAWAY while a request is in flight lets it finish,
// and the next request goes on a new connection.
func testH2GoAway(t *testing.T, p *h2Peer) {
	if p.drain == nil {
		t.Skip("the server has no GOAWAY of its own to send without closing its listener")
	}
	c, dials := h2BriskClient(t)
	get(t, c, p.url+"/get")
	var req brisk.Request
	var resp brisk.Response
	req.SetURI(p.url + "/slow")
	done := make(chan error, 1)
	go func() { done <- c.Do(&req, &resp) }()
	<-p.state.slowIn
	p.drain()
	time.Sleep(50 * time.Millisecond) // the GOAWAY arrives
	p.state.release <- struct{}{}     // not closed: the cleanup does
	if err := <-done; err != nil || string(resp.Body()) != "released" {
		t.Errorf("in-flight request: %v, %q", err, resp.Body())
	}
	get(t, c, p.url+"/get")
	if n := dials.n.Load(); n != 2 {
		t.Errorf("%d dials; want 2 (a new connection after GOAWAY)", n)
	}
}

// testH2Killed: the connection closed while requests are in flight: an
// idempotent request on a reused connection is sent again on a new one,
// another fails with ErrConnectionClosed.
func testH2Killed(t *testing.T, p *h2Peer) {
	c, dials := h2BriskClient(t)
	get(t, c, p.url+"/get")
	p.state.killed.Store(false)
	if resp := get(t, c, p.url+"/killonce"); string(resp.Body()) != "second" || dials.n.Load() != 2 {
		t.Errorf("GET: %q after %d dials; want second after 2 (retried on a new connection)", resp.Body(), dials.n.Load())
	}
	p.state.killed.Store(false)
	var req brisk.Request
	var resp brisk.Response
	req.SetMethod("POST")
	req.SetURI(p.url + "/killonce")
	req.SetBodyString("x")
	if err := c.Do(&req, &resp); !errors.Is(err, brisk.ErrConnectionClosed) {
		t.Errorf("POST: %v; want ErrConnectionClosed", err)
	}
}
