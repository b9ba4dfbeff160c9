package h3

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/quic-go/quic-go/http3"
)

// recorder keeps the OnRequestDone records by request-target.
type recorder struct {
	mu   sync.Mutex
	recs map[string][]brisk.RequestInfo
}

func (r *recorder) done(in *brisk.RequestInfo) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.recs == nil {
		r.recs = make(map[string][]brisk.RequestInfo)
	}
	c := *in
	c.Method, c.Target = bytes.Clone(in.Method), bytes.Clone(in.Target)
	r.recs[string(c.Target)] = append(r.recs[string(c.Target)], c)
}

// one waits (up to 5 s) for the record of target and returns it; it
// fails the test unless there is exactly one, 100 ms after the first.
func (r *recorder) one(t *testing.T, target string) brisk.RequestInfo {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		r.mu.Lock()
		n := len(r.recs[target])
		r.mu.Unlock()
		if n > 0 {
			break
		}
	}
	time.Sleep(100 * time.Millisecond)
	r.mu.Lock()
	defer r.mu.Unlock()
	if recs := r.recs[target]; len(recs) != 1 {
		t.Fatalf("%s: %d OnRequestDone calls, want 1", target, len(recs))
	}
	return r.recs[target][0]
}

// fixture is a brisk.Server serving HTTP/3 (and TLS on TCP) on loopback.
type fixture struct {
	srv    *brisk.Server
	s3     *Server
	addr   string // UDP and TCP, same port number not guaranteed: see tcp
	tcp    string
	rec    *recorder
	client *http.Client
	tr     *http3.Transport
}

// start serves h over HTTP/3 on 127.0.0.1 until the test ends; conf
// tunes srv before Configure.
func start(t *testing.T, h brisk.Handler, conf func(*brisk.Server)) *fixture {
	t.Helper()
	return startConfig(t, h, conf, Config{})
}

// startConfig is start with c3 given to Configure.
func startConfig(t *testing.T, h brisk.Handler, conf func(*brisk.Server), c3 Config) *fixture {
	t.Helper()
	certs := brisktest.NewTLSCerts()
	f := &fixture{rec: &recorder{}}
	f.srv = &brisk.Server{
		Handler:       h,
		TLSConfig:     certs.ServerConfig(),
		Logger:        slog.New(slog.NewTextHandler(io.Discard, nil)),
		OnRequestDone: f.rec.done,
	}
	if conf != nil {
		conf(f.srv)
	}
	s3, err := Configure(f.srv, c3)
	if err != nil {
		t.Fatal(err)
	}
	f.s3 = s3
	f.srv.Handler = s3.AltSvc(f.srv.Handler)
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.addr, f.tcp = pc.LocalAddr().String(), ln.Addr().String()
	served := make(chan error, 1)
	go func() { served <- s3.Serve(pc) }()
	go f.srv.ServeTLS(ln, "", "")
	f.tr = &http3.Transport{TLSClientConfig: certs.ClientConfig()}
	f.client = &http.Client{Transport: f.tr, Timeout: 30 * time.Second}
	t.Cleanup(func() {
		f.tr.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := f.srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		s3.Close()
		select {
		case err := <-served:
			if !errors.Is(err, http.ErrServerClosed) {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return within 10 s of Close")
		}
		pc.Close()
	})
	return f
}

func (f *fixture) url(path string) string { return "https://" + f.addr + path }

// describe answers with the request's facts as the brisk handler sees them.
func describe(c *brisk.Ctx) {
	fmt.Fprintf(c.BodyWriter(), "%s %s remote=%s tls=%v", c.Proto(), c.Request.Method(), c.RemoteAddr(), c.TLS() != nil && c.TLS().Version == 0x0304)
}

// TestGet: a GET over HTTP/3 reaches the brisk handler with Proto
// HTTP/3.0, the client's address and TLS 1.3, and is reported once.
func TestGet(t *testing.T) {
	f := start(t, describe, nil)
	resp, err := f.client.Get(f.url("/get"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Proto != "HTTP/3.0" || resp.StatusCode != 200 {
		t.Fatalf("got %s %d", resp.Proto, resp.StatusCode)
	}
	if want := "HTTP/3.0 GET remote=127.0.0.1:"; !bytes.HasPrefix(b, []byte(want)) || !bytes.HasSuffix(b, []byte(" tls=true")) {
		t.Fatalf("body %q", b)
	}
	if resp.Header.Get("Alt-Svc") != "" {
		t.Errorf("Alt-Svc on an HTTP/3 response: %q", resp.Header.Get("Alt-Svc"))
	}
	rec := f.rec.one(t, "/get")
	if rec.Proto != "HTTP/3.0" || rec.Status != 200 || rec.Err != nil || rec.BytesWritten == 0 {
		t.Fatalf("record: proto %q status %d err %v written %d", rec.Proto, rec.Status, rec.Err, rec.BytesWritten)
	}
	if rec.RemoteAddr == nil || !bytes.HasPrefix(b, []byte("HTTP/3.0 GET remote="+rec.RemoteAddr.String())) {
		t.Errorf("record RemoteAddr %v, body %q", rec.RemoteAddr, b)
	}
}

// TestAltSvc: a response on TLS over TCP advertises the UDP port.
func TestAltSvc(t *testing.T) {
	f := start(t, describe, nil)
	certs := f.srv.TLSConfig
	_ = certs
	tr := &http.Transport{TLSClientConfig: f.tr.TLSClientConfig.Clone()}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Get("https://" + f.tcp + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_, port, _ := net.SplitHostPort(f.addr)
	if got, want := resp.Header.Get("Alt-Svc"), `h3=":`+port+`"; ma=86400`; got != want {
		t.Fatalf("Alt-Svc %q, want %q", got, want)
	}
}

// TestPostLarge streams a large body both ways, 50 MB: the handler
// hashes the request body while it arrives and echoes it back, with the
// hash and length in trailers. On other architectures (emulated in CI)
// it is 8 MB, under the race detector 4 MB, to stay within seconds: the
// echo runs at about 0.5 MB/s (4 MB in 8 s, 8 MB in 14 s of wall time,
// 1.8 and 2.6 s of CPU, on a 2-core machine). Past MinRequestBodyRateGrace (5 s)
// its body reads time out and brisk reads on (TestBodyPastRateGrace); the
// bridge used to end the body there, and the handler spun until the
// client gave up: the cause of the hang under -race.
func TestPostLarge(t *testing.T) {
	size := 50 << 20
	switch {
	case raceOn:
		size = 4 << 20
	case runtime.GOARCH != "amd64":
		size = 8 << 20
	}
	f := start(t, func(c *brisk.Ctx) {
		h := sha256.New()
		n, err := io.Copy(io.MultiWriter(h, c.BodyWriter()), c.Request.BodyReader())
		if err != nil {
			c.Logger().Error("copy", "err", err)
			return
		}
		c.Response.Trailer.Set("X-Sum", hex.EncodeToString(h.Sum(nil)))
		c.Response.Trailer.Set("X-Len", strconv.FormatInt(n, 10))
	}, func(s *brisk.Server) { s.MaxBodyBytes = -1 })
	body := io.LimitReader(&pattern{}, int64(size))
	want := sha256.New()
	io.Copy(want, io.LimitReader(&pattern{}, int64(size)))
	resp, err := f.client.Post(f.url("/post"), "application/octet-stream", body)
	if err != nil {
		t.Fatal(err)
	}
	got := sha256.New()
	n, err := io.Copy(got, resp.Body)
	resp.Body.Close()
	if err != nil || n != int64(size) {
		t.Fatalf("read %d bytes, err %v", n, err)
	}
	sum := hex.EncodeToString(want.Sum(nil))
	if hex.EncodeToString(got.Sum(nil)) != sum {
		t.Fatal("echoed body differs")
	}
	if resp.Trailer.Get("X-Sum") != sum || resp.Trailer.Get("X-Len") != strconv.Itoa(size) {
		t.Fatalf("trailers %v", resp.Trailer)
	}
	rec := f.rec.one(t, "/post")
	if rec.Proto != "HTTP/3.0" || rec.Status != 200 || rec.BytesRead < int64(size) || rec.BytesWritten < int64(size) {
		t.Fatalf("record: proto %q status %d read %d written %d", rec.Proto, rec.Status, rec.BytesRead, rec.BytesWritten)
	}
}

// pattern is an endless reader of a repeating byte pattern.
type pattern struct{ off int }

func (r *pattern) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte((r.off + i) % 251)
	}
	r.off += len(p)
	return len(p), nil
}

// TestRequestTrailers: trailers the client sends reach the handler.
func TestRequestTrailers(t *testing.T) {
	f := start(t, func(c *brisk.Ctx) {
		io.Copy(io.Discard, c.Request.BodyReader())
		c.Response.SetBodyString("sum=" + string(c.Request.Trailer.Get("X-Sum")))
	}, nil)
	req, _ := http.NewRequest("POST", f.url("/trailers"), io.NopCloser(bytes.NewReader([]byte("hello"))))
	req.ContentLength = -1
	req.Trailer = http.Header{"X-Sum": {"42"}}
	resp, err := f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "sum=42" {
		t.Fatalf("body %q", b)
	}
	f.rec.one(t, "/trailers")
}

// TestParallelStreams sends 100 requests at once on one connection; each
// is answered and reported once.
func TestParallelStreams(t *testing.T) {
	f := start(t, describe, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 100 {
		wg.Go(func() {
			resp, err := f.client.Get(f.url("/p" + strconv.Itoa(i)))
			if err != nil {
				errs <- err
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !bytes.HasPrefix(b, []byte("HTTP/3.0 GET")) {
				errs <- fmt.Errorf("body %q", b)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	f.rec.mu.Lock()
	defer f.rec.mu.Unlock()
	for i := range 100 {
		if recs := f.rec.recs["/p"+strconv.Itoa(i)]; len(recs) != 1 || recs[0].Proto != "HTTP/3.0" {
			t.Fatalf("/p%d: %d records", i, len(recs))
		}
	}
}

// TestCancel: a request the client cancels cancels the handler's
// context (the stream is reset), and it is reported once, with an error.
func TestCancel(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan struct{})
	f := start(t, func(c *brisk.Ctx) {
		c.BodyWriter().WriteString("begin")
		c.BodyWriter().Flush()
		close(started)
		select {
		case <-c.Context().Done():
			close(cancelled)
		case <-time.After(5 * time.Second):
		}
	}, nil) // client-close cancellation is the default
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", f.url("/cancel"), nil)
	resp, err := f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	<-started
	cancel()
	resp.Body.Close()
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler's context was not cancelled")
	}
	if rec := f.rec.one(t, "/cancel"); rec.Proto != "HTTP/3.0" {
		t.Fatalf("record proto %q", rec.Proto)
	}
}

// TestPanic: a handler that panics before its response gets a 500; one
// that panics mid-body has its stream reset. The connection serves on.
func TestPanic(t *testing.T) {
	f := start(t, func(c *brisk.Ctx) {
		if string(c.Request.Path()) == "/late" {
			c.BodyWriter().WriteString("partial")
			c.BodyWriter().Flush()
		}
		if string(c.Request.Path()) != "/ok" {
			panic("boom")
		}
		c.Response.SetBodyString("ok")
	}, nil)
	resp, err := f.client.Get(f.url("/early"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 500 {
		t.Fatalf("early panic: status %d", resp.StatusCode)
	}
	resp, err = f.client.Get(f.url("/late"))
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err == nil {
		t.Fatal("late panic: body read without error")
	}
	resp, err = f.client.Get(f.url("/ok"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "ok" {
		t.Fatalf("after panics: %q", b)
	}
	if rec := f.rec.one(t, "/early"); rec.Status != 500 {
		t.Errorf("/early: status %d", rec.Status)
	}
	if rec := f.rec.one(t, "/late"); rec.Status != 200 || rec.Proto != "HTTP/3.0" {
		t.Errorf("/late: status %d proto %q", rec.Status, rec.Proto)
	}
}

// cloneTransport returns a new HTTP/3 transport (its own connections)
// trusting f's certificate, closed when the test ends.
func cloneTransport(t *testing.T, f *fixture) *http3.Transport {
	tr := &http3.Transport{TLSClientConfig: f.tr.TLSClientConfig.Clone()}
	t.Cleanup(func() { tr.Close() })
	return tr
}
