package matrix

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk/brisktest"
)

// servers starts the matrix's four servers: {cleartext, TLS} × {without,
// with ProxyProtocol}.
func servers(t *testing.T, certs *brisktest.TLSCerts) map[[2]bool]*server {
	m := make(map[[2]bool]*server)
	for _, tlsOn := range []bool{false, true} {
		for _, proxy := range []bool{false, true} {
			m[[2]bool{tlsOn, proxy}] = startServer(t, certs, tlsOn, proxy)
		}
	}
	return m
}

// cells returns the matrix: every transport × every PROXY mode.
func cells(certs *brisktest.TLSCerts, m map[[2]bool]*server) []cell {
	var cs []cell
	for _, tr := range []string{h1, h1TLS, h2TLS, h2c} {
		for _, pm := range []string{noProxy, proxyV1, proxyV2} {
			c := cell{transport: tr, proxy: pm, certs: certs}
			c.s = m[[2]bool{c.isTLS(), pm != noProxy}]
			cs = append(cs, c)
		}
	}
	return cs
}

// TestMatrix runs every cell: the request's facts, the completion
// record, cancellation on client close; then drains every server with
// requests in flight on each of its transports.
func TestMatrix(t *testing.T) {
	certs := brisktest.NewTLSCerts()
	m := servers(t, certs)
	for _, c := range cells(certs, m) {
		t.Run(c.name(), func(t *testing.T) {
			t.Run("facts", func(t *testing.T) { checkFacts(t, c) })
			t.Run("bytes", func(t *testing.T) { checkBytes(t, c) })
			t.Run("cancel", func(t *testing.T) { checkCancel(t, c) })
		})
	}
	for key, s := range m {
		var group []cell
		for _, c := range cells(certs, m) {
			if c.s == s {
				group = append(group, c)
			}
		}
		t.Run(fmt.Sprintf("drain_tls=%v_proxy=%v", key[0], key[1]), func(t *testing.T) { checkDrain(t, s, group) })
	}
}

// get sends a request and returns the response and its body.
func do(t *testing.T, cl *http.Client, method, url, body string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// want returns the facts the handler must see for the cell, the client's
// connection coming from local.
func (c cell) want(local string, forwarded bool) string {
	proto, tlsState, proxy, remote := "HTTP/1.1", "none", "none", local
	if c.isHTTP2() {
		proto = "HTTP/2.0"
	}
	switch c.transport {
	case h1TLS:
		tlsState = "http/1.1/304"
	case h2TLS:
		tlsState = "h2/304"
	}
	if c.proxy != noProxy {
		proxy = c.proxy + "/" + proxySource.String()
		remote = proxySource.String()
	}
	clientIP := remote[:strings.LastIndexByte(remote, ':')]
	if forwarded {
		clientIP = forwardedFor
	}
	return fmt.Sprintf("proto=%s\nctxproto=%s\nremote=%s\nclientip=%s\npeer=%s\nlocal=%s\ntls=%s\nproxy=%s\n",
		proto, proto, remote, clientIP, local, c.s.addr, tlsState, proxy)
}

// checkFacts: Proto, RemoteAddr, ClientIP (with and without a trusted
// X-Forwarded-For), PeerAddr, LocalAddr, TLS and Proxy, in the handler,
// in the response and in the one OnRequestDone record.
func checkFacts(t *testing.T, c cell) {
	for _, forwarded := range []bool{false, true} {
		target := fmt.Sprintf("/facts?id=%s-%v", c.name(), forwarded)
		cl, log := c.client()
		var header []string
		if forwarded {
			header = []string{"X-Forwarded-For", forwardedFor}
		}
		resp, body := do(t, cl, "GET", c.url(target), "", header...)
		cl.CloseIdleConnections()
		local := log.last().LocalAddr().String()
		if want := c.want(local, forwarded); resp.StatusCode != 200 || body != want {
			t.Fatalf("%d\n%s\nwant 200\n%s", resp.StatusCode, body, want)
		}
		if wantMajor := map[bool]int{true: 2, false: 1}[c.isHTTP2()]; resp.ProtoMajor != wantMajor {
			t.Fatalf("response %s, want HTTP/%d", resp.Proto, wantMajor)
		}
		rec := c.s.rec.one(t, target)
		wantProto := map[bool]string{true: "HTTP/2.0", false: "HTTP/1.1"}[c.isHTTP2()]
		wantRemote := local
		if c.proxy != noProxy {
			wantRemote = proxySource.String()
		}
		if rec.method != "GET" || rec.proto != wantProto || rec.status != 200 || rec.remote != wantRemote || rec.err != nil {
			t.Fatalf("record %+v, want GET %s 200 from %s, no error", rec, wantProto, wantRemote)
		}
		// One connection, reported once: its streams are not connections.
		if states := c.s.conns.closed(local); states != "new active closed" {
			t.Fatalf("ConnState reported %q, want \"new active closed\"", states)
		}
	}
}

// checkBytes: two POSTs whose request bodies differ by 1000 bytes and
// responses by 100, heads of the same length: the records' counts differ
// by exactly that, and each counts its head (over HTTP/1.1: exactly the
// bytes the client's connection carried, PROXY header and TLS records
// aside).
func checkBytes(t *testing.T, c cell) {
	type sent struct {
		rec         record
		read, wrote int64
	}
	var got [2]sent
	for i, size := range []int{1000, 2000} {
		target := fmt.Sprintf("/echo?id=%s-%d&n=%d", c.name(), i, 700+100*i)
		cl, log := c.client()
		resp, body := do(t, cl, "POST", c.url(target), strings.Repeat("b", size))
		cl.CloseIdleConnections()
		if wantBody := fmt.Sprintf("%d:", size) + strings.Repeat("x", 700+100*i); resp.StatusCode != 201 || body != wantBody {
			t.Fatalf("%d %d bytes, want 201 %d bytes", resp.StatusCode, len(body), len(wantBody))
		}
		rec := c.s.rec.one(t, target)
		if rec.status != 201 || rec.err != nil || rec.method != "POST" {
			t.Fatalf("record %+v, want POST 201, no error", rec)
		}
		cc := log.last()
		got[i] = sent{rec, cc.written.Load(), cc.read.Load()}
	}
	a, b := got[0].rec, got[1].rec
	if b.read-a.read != 1000 || b.written-a.written != 100 {
		t.Fatalf("BytesRead %d then %d, BytesWritten %d then %d: want +1000 and +100", a.read, b.read, a.written, b.written)
	}
	minHead := int64(len("POST /echo?id=" + c.name() + "-0&n=700 HTTP/1.1\r\n\r\n"))
	if head := a.read - 1000; head < minHead || head > 1024 {
		t.Fatalf("BytesRead %d: head of %d bytes, want %d to 1024", a.read, head, minHead)
	}
	if head := a.written - 705; head < int64(len("HTTP/1.1 201 Created\r\n\r\n")) || head > 1024 {
		t.Fatalf("BytesWritten %d: head of %d bytes, want 25 to 1024", a.written, head)
	}
	if !c.isHTTP2() {
		for i, g := range got {
			if g.rec.read != g.read || g.rec.written != g.wrote {
				t.Fatalf("request %d: BytesRead %d BytesWritten %d, the client wrote %d and read %d", i, g.rec.read, g.rec.written, g.read, g.wrote)
			}
		}
	}
}

// checkCancel: the client gives up on a request whose handler waits (on
// HTTP/1.1 it closes the connection, on HTTP/2 it resets the stream):
// the handler's context is cancelled, and the request is reported once,
// with the status the handler set.
func checkCancel(t *testing.T, c cell) {
	id := c.name()
	target := "/hang?id=" + id
	started, result := c.s.gate.chans(id)
	cl, _ := c.client()
	defer cl.CloseIdleConnections()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", c.url(target), nil)
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		resp, err := cl.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	select {
	case <-started:
	case err := <-errc:
		t.Fatalf("request ended before its handler ran: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("handler did not run")
	}
	cancel()
	select {
	case r := <-result:
		if r != "cancelled" {
			t.Fatalf("handler: %s", r)
		}
	case <-time.After(7 * time.Second):
		t.Fatal("handler did not return")
	}
	<-errc
	if rec := c.s.rec.one(t, target); rec.status != 499 {
		t.Fatalf("record %+v, want status 499", rec)
	}
}

// checkDrain: two requests in flight on every transport of s (on HTTP/2,
// two streams of one connection); Drain is called, the handlers are then
// let go: every request completes with 200 and is reported, and Drain
// returns nil.
func checkDrain(t *testing.T, s *server, group []cell) {
	type result struct {
		target string
		status int
		body   string
		err    error
	}
	var wg sync.WaitGroup
	results := make(chan result, 2*len(group))
	var targets []string
	for _, c := range group {
		cl, _ := c.client()
		defer cl.CloseIdleConnections()
		for i := range 2 {
			id := fmt.Sprintf("drain-%s-%d", c.name(), i)
			target := "/slow?id=" + id
			targets = append(targets, target)
			started, _ := s.gate.chans(id)
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, err := cl.Get(c.url(target))
				r := result{target: target, err: err}
				if err == nil {
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					r.status, r.body = resp.StatusCode, string(b)
				}
				results <- r
			}()
			select {
			case <-started:
			case <-time.After(5 * time.Second):
				t.Fatalf("%s: handler did not run", target)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	drained := make(chan error, 1)
	go func() { drained <- s.srv.Drain(ctx) }()
	for !s.srv.Draining() {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // GOAWAY sent, idle connections closed
	close(s.gate.release)
	wg.Wait()
	close(results)
	for r := range results {
		if r.err != nil || r.status != 200 || r.body != "done" {
			t.Errorf("%s: %d %q %v, want 200 done", r.target, r.status, r.body, r.err)
		}
	}
	if err := <-drained; err != nil {
		t.Fatalf("Drain: %v", err)
	}
	for _, target := range targets {
		if rec := s.rec.one(t, target); rec.status != 200 || rec.err != nil {
			t.Errorf("%s: record %+v, want 200", target, rec)
		}
	}
}
