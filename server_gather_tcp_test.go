package brisk

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
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Tests of a buffered body written together with the head before it
// over loopback TCP (one writev), TLS (writePieces), a wrapped connection
// (one Write after another) and PROXY-protocol connections, to clients
// that read at full speed, slowly, or not at all.

// The server's socket send buffer is made small and the client's receive
// buffer is fixed, so that a 1 MiB body is far more than the connection
// holds (some 300 KiB) and the write waits on the client. (A receive
// buffer much smaller would stall the connection: with loopback's 64 KiB
// segments, the client would advertise no window until TCP's persist
// timer fired, 200 ms later.)
const (
	gatherSockBuf = 16 << 10  // the server's socket send buffer, in bytes
	gatherRecvBuf = 128 << 10 // the client's socket receive buffer, in bytes
)

// gatherListener sets a small send buffer on each accepted TCP
// connection and, with wrap set, hides the *net.TCPConn behind a
// recordingConn (no writev).
type gatherListener struct {
	net.Listener
	wrap  bool
	conns chan *recordingConn
}

func (l *gatherListener) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	nc.(*net.TCPConn).SetWriteBuffer(gatherSockBuf)
	if !l.wrap {
		return nc, nil
	}
	rc := &recordingConn{Conn: nc}
	l.conns <- rc
	return rc, nil
}

// recordingConn is a net.Conn wrapper recording the length of each
// Write, as a middleware's connection would hide the *net.TCPConn.
type recordingConn struct {
	net.Conn
	mu     sync.Mutex
	writes []int
}

func (c *recordingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.mu.Lock()
	c.writes = append(c.writes, n)
	c.mu.Unlock()
	return n, err
}

func (c *recordingConn) lens() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.writes...)
}

// gatherRecord records a connection's OnRequestDone calls and, for each,
// whether the write that ended its response timed out and whether it was
// resumed after a timeout (conn.wclock: probed, or judged by the rate),
// read on the connection's goroutine.
type gatherRecord struct {
	cc      *conn         // set by the handler, read by OnRequestDone: one goroutine
	called  chan struct{} // a value per call, up to its capacity
	mu      sync.Mutex
	calls   []RequestInfo
	resumed []bool
	timeout []bool
}

// gatherVariant is a kind of connection the tests run over.
type gatherVariant struct {
	name string
	tls  bool // ServeTLS
	wrap bool // the server's net.Conn is a recordingConn
	// The client sends a PROXY header first, before the TLS handshake
	// with tls (Server.ProxyProtocol).
	proxy bool
}

// gatherVariants are the connections the tests run over.
var gatherVariants = []gatherVariant{
	{name: "tcp"}, {name: "tls", tls: true}, {name: "wrapped", wrap: true},
	{name: "proxy", proxy: true}, {name: "proxy_tls", proxy: true, tls: true},
}

// gatherServer is one server of these tests: its address, its record,
// and with wrap its accepted connections.
type gatherServer struct {
	addr  string
	rec   *gatherRecord
	conns chan *recordingConn
	gatherVariant
}

// startGather serves s (its Handler is gatherHandler) on 127.0.0.1 with
// small socket send buffers over connections of kind v, until the test
// ends.
func startGather(t *testing.T, s *Server, v gatherVariant) *gatherServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := &gatherServer{addr: l.Addr().String(), rec: &gatherRecord{called: make(chan struct{}, 64)},
		conns: make(chan *recordingConn, 4), gatherVariant: v}
	ln := &gatherListener{Listener: l, wrap: v.wrap, conns: gs.conns}
	if v.proxy {
		s.ProxyProtocol = &ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
	}
	rec := gs.rec
	s.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	s.Handler = func(c *Ctx) {
		rec.cc = c.c
		gatherHandler(c)
	}
	s.OnRequestDone = func(in *RequestInfo) {
		w := &rec.cc.wclock // every request here reaches the handler
		timedOut := w.write == rec.cc.writes
		rec.mu.Lock()
		cp := *in
		cp.Method = bytes.Clone(in.Method)
		rec.calls = append(rec.calls, cp)
		rec.timeout = append(rec.timeout, timedOut)
		rec.resumed = append(rec.resumed, timedOut && (w.probed || w.baseAt != 0))
		rec.mu.Unlock()
		select {
		case rec.called <- struct{}{}:
		default:
		}
	}
	done := make(chan error, 1)
	if v.tls {
		s.TLSConfig = &tls.Config{Certificates: []tls.Certificate{getPKI(t).server}}
		go func() { done <- s.ServeTLS(ln, "", "") }()
	} else {
		go func() { done <- s.Serve(ln) }()
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-done; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve returned %v, want ErrServerClosed", err)
		}
	})
	return gs
}

// dial connects to the server, with a gatherRecvBuf receive buffer and
// a 10 s deadline as a safety net, and sends the PROXY header if any.
func (gs *gatherServer) dial(t *testing.T) net.Conn {
	t.Helper()
	tc, err := net.Dial("tcp", gs.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tc.Close() })
	tc.(*net.TCPConn).SetReadBuffer(gatherRecvBuf)
	tc.SetDeadline(time.Now().Add(10 * time.Second))
	if gs.proxy {
		if _, err := io.WriteString(tc, "PROXY TCP4 192.0.2.1 192.0.2.2 4321 80\r\n"); err != nil {
			t.Fatal(err)
		}
	}
	if gs.tls {
		return tls.Client(tc, getPKI(t).clientTLS())
	}
	return tc
}

// exchange sends reqs at once on a new connection, reads until the
// server closes it, and checks the responses (checkResponses): what came
// and the length of each response.
func (gs *gatherServer) exchange(t *testing.T, reqs []string) (raw []byte, lens []int) {
	t.Helper()
	nc := gs.dial(t)
	if _, err := io.WriteString(nc, strings.Join(reqs, "")); err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(nc)
	if err != nil {
		t.Fatal(err)
	}
	return raw, checkResponses(t, raw, reqs)
}

// done returns the completions recorded so far (all of them once the
// server closed the connection: it calls OnRequestDone first).
// For each, it also says whether the write that ended the response timed
// out, and whether it was resumed after a timeout.
func (gs *gatherServer) done() (calls []RequestInfo, timedOut, resumed []bool) {
	gs.rec.mu.Lock()
	defer gs.rec.mu.Unlock()
	return gs.rec.calls, gs.rec.timeout, gs.rec.resumed
}

// readSlowlyToEOF reads nc chunk bytes at a time, pausing before each
// read, until the server closes it, and returns what it read; err is nil
// at EOF. After a value from fast (nil: none), it reads without pauses.
func readSlowlyToEOF(nc net.Conn, chunk int, pause time.Duration, fast <-chan struct{}) ([]byte, error) {
	var all []byte
	buf := make([]byte, chunk)
	for {
		select {
		case <-fast:
			pause, fast = 0, nil
		default:
		}
		time.Sleep(pause)
		n, err := nc.Read(buf)
		all = append(all, buf[:n]...)
		if err == io.EOF {
			return all, nil
		}
		if err != nil {
			return all, err
		}
	}
}

// lastClose is gatherScript with its last request asking to close, so
// that the client reads to EOF.
func lastClose(reqs []string) []string {
	out := append([]string(nil), reqs...)
	last := out[len(out)-1]
	out[len(out)-1] = strings.TrimSuffix(last, "\r\n") + "Connection: close\r\n\r\n"
	return out
}

// checkResponses checks that raw holds, in order, the whole responses to
// reqs from gatherHandler, byte for byte, and nothing more; it returns
// their lengths on the wire.
func checkResponses(t *testing.T, raw []byte, reqs []string) []int {
	t.Helper()
	lens := splitResponses(t, raw, reqs)
	br := bufio.NewReader(bytes.NewReader(raw))
	for _, r := range reqs {
		method, rest, _ := strings.Cut(r, " ")
		path, _, _ := strings.Cut(rest, " ")
		resp, err := http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		want := wantBody(path)
		if method == "HEAD" {
			if cl := resp.Header.Get("Content-Length"); cl != strconv.Itoa(len(want)) {
				t.Errorf("HEAD %s: Content-Length %q, want %d", path, cl, len(want))
			}
			want = nil
		}
		if resp.StatusCode != 200 || !bytes.Equal(body, want) {
			t.Fatalf("%s %s: status %d, %d bytes of body unlike the %d sent", method, path, resp.StatusCode, len(body), len(want))
		}
	}
	return lens
}

// wantBody is gatherHandler's body for path.
func wantBody(path string) []byte {
	if n, ok := strings.CutPrefix(path, "/big/"); ok {
		return gatherBody[:atoiOr(n, 0)]
	}
	if n, ok := strings.CutPrefix(path, "/stream/"); ok {
		return gatherBody[:atoiOr(n, 0)]
	}
	n, _ := strings.CutPrefix(path, "/s/")
	return bytes.Repeat([]byte("s"), atoiOr(n, 0))
}

// TestGatherSlowReaderRate: a client that reads 20 pipelined responses,
// a 1 MiB one, a chunked one (its 300,000-byte chunk written from the
// handler's storage with the chunk-size line) and a short one slowly,
// but far above MinResponseRate, gets them all, byte for byte, though
// the write of the large one timed out (at the end of the grace period)
// and was resumed where it stopped (on TLS, written in pieces each given
// the time it takes at the rate: writePieces); each request gets one
// completion with its whole response. The grace period is long enough
// for a client stalled by a loaded machine (no byte taken over a grace
// period cuts it), the reads slow enough that the write outlasts it. Over
// the wrapped connection, the buffer is one Write and the body others.
func TestGatherSlowReaderRate(t *testing.T) {
	reqs := lastClose(append(gatherScript[:20:20], get("/big/1048576"), get("/stream/300000"), get("/s/10")))
	for _, v := range gatherVariants {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel() // mostly waiting on the client's pauses
			gs := startGather(t, &Server{WriteBufferSize: 64 << 10,
				MinResponseRate: testRate, MinResponseRateGrace: 250 * time.Millisecond}, v)
			nc := gs.dial(t)
			if _, err := io.WriteString(nc, strings.Join(reqs, "")); err != nil {
				t.Fatal(err)
			}
			raw, err := readSlowlyToEOF(nc, 16<<10, 10*time.Millisecond, nil) // 1 MiB in 64 reads: 640 ms or more
			if err != nil {
				t.Fatalf("after %d bytes: %v", len(raw), err)
			}
			lens := checkResponses(t, raw, reqs)
			calls, _, resumed := gs.done()
			if len(calls) != len(reqs) {
				t.Fatalf("%d completions, want %d", len(calls), len(reqs))
			}
			for i, in := range calls {
				if in.BytesWritten != int64(lens[i]) || in.Err != nil {
					t.Errorf("completion %d (%s): written %d err %v, want %d", i, in.Route, in.BytesWritten, in.Err, lens[i])
				}
			}
			if !v.tls && !resumed[20] { // TLS: written in pieces (writePieces), without wclock
				t.Errorf("the write of the large response was never resumed after a timeout: the test did not test")
			}
			if v.wrap {
				checkWrites(t, <-gs.conns, raw, lens, 20, 1<<20)
			}
		})
	}
}

// checkWrites checks that rc took raw, the responses of lengths lens, in
// Writes that begin with one of the write buffer: the responses before
// response big and its head, without its body of bodyLen bytes (written
// from its own storage).
func checkWrites(t *testing.T, rc *recordingConn, raw []byte, lens []int, big, bodyLen int) {
	t.Helper()
	writes := rc.lens()
	buffered := lens[big] - bodyLen
	for _, n := range lens[:big] {
		buffered += n
	}
	sum := 0
	for _, n := range writes {
		sum += n
	}
	if sum != len(raw) || len(writes) < 2 || writes[0] != buffered {
		t.Errorf("Writes %v, of %d bytes; want %d bytes, the first Write %d (the buffer)", writes, sum, len(raw), buffered)
	}
}

// checkCut checks that raw is the start of the response to GET
// /big/1048576 and is cut short: its head announces the whole body, its
// body is a proper prefix of it; over TCP it is every byte the server
// wrote (written), over TLS no more.
func checkCut(t *testing.T, raw []byte, written int64, tlsOn bool) {
	t.Helper()
	head, body, ok := bytes.Cut(raw, []byte("\r\n\r\n"))
	if !ok || !bytes.HasPrefix(head, []byte("HTTP/1.1 200 OK\r\n")) || !bytes.Contains(head, []byte("\r\nContent-Length: 1048576")) {
		t.Fatalf("received %d bytes, not a 200 response with the length of the body: %.200q", len(raw), raw)
	}
	if len(body) >= len(gatherBody) || !bytes.Equal(body, gatherBody[:len(body)]) {
		t.Fatalf("%d bytes of body: not a proper prefix of the %d sent", len(body), len(gatherBody))
	}
	if got := int64(len(raw)); !tlsOn && got != written || tlsOn && got > written {
		t.Fatalf("received %d bytes, the server wrote %d", got, written)
	}
}

// TestGatherWriteTimeoutCuts: WriteTimeout cuts the write of 20
// pipelined responses and a 1 MiB body to a client that reads too slowly
// to take them in time, with MinResponseRate off (the first timeout ends
// it) and met (the write resumes after the grace period, until
// WriteTimeout): the client receives exactly the bytes the server wrote,
// the 20 responses, a head and a prefix of the body, then the
// connection closes; the 20 get one completion each, whole, the cut one
// reports its bytes and the deadline's error.
func TestGatherWriteTimeoutCuts(t *testing.T) {
	reqs := lastClose(append(gatherScript[:20:20], get("/big/1048576")))
	for _, v := range gatherVariants {
		for _, rate := range []struct {
			name         string
			perSec       int
			grace        time.Duration
			writeTimeout time.Duration
			resumed      bool // the write resumes after a timeout before WriteTimeout
		}{
			{"rate_off", -1, 0, 300 * time.Millisecond, false},
			{"rate_met", testRate, 200 * time.Millisecond, 500 * time.Millisecond, true},
		} {
			t.Run(v.name+"/"+rate.name, func(t *testing.T) {
				t.Parallel() // mostly waiting on the client's pauses
				gs := startGather(t, &Server{WriteTimeout: rate.writeTimeout, WriteBufferSize: 64 << 10,
					MinResponseRate: rate.perSec, MinResponseRateGrace: rate.grace}, v)
				nc := gs.dial(t)
				if _, err := io.WriteString(nc, strings.Join(reqs, "")); err != nil {
					t.Fatal(err)
				}
				// At most 800 KB/s: 1 MiB, less what the connection holds
				// (some 300 KiB), takes more than 900 ms. Once the write
				// failed, the rest is read at once.
				raw, err := readSlowlyToEOF(nc, 8<<10, 10*time.Millisecond, gs.rec.called)
				if err != nil && !v.tls { // TLS: a record may be cut
					t.Fatalf("after %d bytes: %v", len(raw), err)
				}
				calls, timedOut, resumed := gs.done()
				if len(calls) != len(reqs) {
					t.Fatalf("%d completions, want %d", len(calls), len(reqs))
				}
				whole := 0 // the bytes of the 20 responses
				for _, in := range calls[:20] {
					if in.Err != nil {
						t.Fatalf("completion of %s: %v", in.Route, in.Err)
					}
					whole += int(in.BytesWritten)
				}
				if len(raw) < whole {
					t.Fatalf("received %d bytes, fewer than the %d of the whole responses", len(raw), whole)
				}
				checkResponses(t, raw[:whole], reqs[:20])
				in := calls[20]
				// With the rate met, a client whose reads stall for the
				// grace period (an emulated or loaded machine: the server
				// is only woken once much of its socket buffer drained)
				// is cut by the rate before WriteTimeout; either way the
				// write resumed after its first timeout (checked below).
				stalled := rate.resumed && errors.Is(in.Err, ErrResponseTooSlow)
				if !errors.Is(in.Err, os.ErrDeadlineExceeded) && !stalled {
					t.Fatalf("completion error %v, want a deadline's (%d bytes written)", in.Err, in.BytesWritten)
				}
				checkCut(t, raw[whole:], in.BytesWritten, v.tls)
				if !v.tls && (!timedOut[20] || resumed[20] != rate.resumed) { // TLS: no wclock
					t.Errorf("the write timed out %v, resumed after a timeout %v; want true, %v", timedOut[20], resumed[20], rate.resumed)
				}
			})
		}
	}
}

// TestGatherTLSRateCuts: over TLS, where a write that timed out cannot
// be resumed, a client that takes nothing of a 1 MiB body is cut with
// ErrResponseTooSlow once the 16 KiB piece of it waiting for room has
// had the time it takes at MinResponseRate (160 ms), long before the
// whole body's (10 s); the client then finds a prefix of the response.
func TestGatherTLSRateCuts(t *testing.T) {
	for _, v := range []gatherVariant{{name: "tls", tls: true}, {name: "proxy_tls", proxy: true, tls: true}} {
		t.Run(v.name, func(t *testing.T) {
			gs := startGather(t, &Server{MinResponseRate: 100 << 10, MinResponseRateGrace: 50 * time.Millisecond}, v)
			nc := gs.dial(t)
			if _, err := io.WriteString(nc, get("/big/1048576")); err != nil {
				t.Fatal(err)
			}
			select { // read nothing until the write failed
			case <-gs.rec.called:
			case <-time.After(5 * time.Second):
				t.Fatal("the write to a client that reads nothing did not fail within 5 s")
			}
			raw, _ := readSlowlyToEOF(nc, 64<<10, 0, nil)
			calls, _, _ := gs.done()
			if len(calls) != 1 || !errors.Is(calls[0].Err, ErrResponseTooSlow) {
				t.Fatalf("completions %+v, want one with ErrResponseTooSlow", calls)
			}
			checkCut(t, raw, calls[0].BytesWritten, true)
		})
	}
}

// TestGatherPipelined: 20 short responses, a large one whose body is
// written from its own storage with them, and a short one after it, to a
// client reading at full speed, arrive in order byte for byte, one
// completion each with its whole response; over the wrapped connection
// in one Write of the buffer, one of the body and one of the last.
func TestGatherPipelined(t *testing.T) {
	reqs := lastClose(gatherScript)
	for _, v := range gatherVariants {
		t.Run(v.name, func(t *testing.T) {
			gs := startGather(t, &Server{WriteBufferSize: 64 << 10}, v)
			raw, lens := gs.exchange(t, reqs)
			calls, _, _ := gs.done()
			checkWhole(t, calls, lens)
			if v.wrap {
				rc := <-gs.conns
				checkWrites(t, rc, raw, lens, 20, 200000)
				if w := rc.lens(); len(w) != 3 || w[1] != 200000 {
					t.Errorf("Writes %v, want the buffer, the body (200000) and the last response", w)
				}
			}
		})
	}
}

// TestGatherHead: the response to HEAD of a 1 MiB buffered body is its
// head alone, announcing the body's length (RFC 9110 §9.3.2); the GET
// pipelined after it reads its own response, and both leave in one write
// (one Write on the wrapped connection).
func TestGatherHead(t *testing.T) {
	reqs := lastClose([]string{"HEAD /big/1048576 HTTP/1.1\r\nHost: x\r\n\r\n", get("/s/10")})
	for _, v := range gatherVariants {
		t.Run(v.name, func(t *testing.T) {
			gs := startGather(t, &Server{}, v)
			raw, lens := gs.exchange(t, reqs)
			calls, _, _ := gs.done()
			if len(calls) != 2 || calls[0].BytesWritten != int64(lens[0]) || calls[1].BytesWritten != int64(lens[1]) ||
				calls[0].Err != nil || calls[1].Err != nil {
				t.Fatalf("completions %+v, want 2 of %v bytes", calls, lens)
			}
			if v.wrap {
				if w := (<-gs.conns).lens(); len(w) != 1 || w[0] != len(raw) {
					t.Errorf("Writes %v, want one of %d bytes", w, len(raw))
				}
			}
		})
	}
}
