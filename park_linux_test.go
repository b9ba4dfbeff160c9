package brisk

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

func init() {
	if os.Getenv(parkEnv) == "detach" {
		parkSweep = 20 * time.Millisecond // before the parker starts: no race
	}
}

// parkedConns returns how many connections of s are parked, shed or not.
func parkedConns(s *Server) int {
	p := theParker.p.Load()
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, sl := range p.slots {
		if sl.srv == s {
			n++
		}
	}
	return n
}

// waitUntil polls cond every 5 ms for up to 5 s and fails the test with what
// when it does not come true.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after 5 s: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// openFDs returns the number of this process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count fds: %v", err)
	}
	return len(ents)
}

// startParking serves s over TCP with parking, at once unless
// s.ParkIdleAfter says otherwise.
func startParking(t *testing.T, s *Server) *testServer {
	t.Helper()
	s.NoParkIdle = false
	if s.ParkIdleAfter == 0 {
		s.ParkIdleAfter = -1
	}
	getParker() // its epoll fd is open before a test counts fds
	if s.Handler == nil {
		s.Handler = echoPath
	}
	return startServer(t, "tcp", s)
}

// connectServed opens n connections to ts and completes one request on
// each, leaving them idle.
func connectServed(ts *testServer, n int) []*client {
	cs := make([]*client, n)
	for i := range cs {
		cs[i] = ts.connect()
		cs[i].roundTrip(get("/"))
	}
	return cs
}

// TestParkServesAgain: idle connections are parked (their goroutines
// gone) and each is served again, in order, when its next request comes.
func TestParkServesAgain(t *testing.T) {
	s := &Server{}
	ts := startParking(t, s)
	const n = 50
	cs := make([]*client, n)
	for i := range cs {
		cs[i] = ts.connect()
		if _, body := cs[i].roundTrip(get(fmt.Sprintf("/a%d", i))); body != fmt.Sprintf("/a%d", i) {
			t.Fatalf("conn %d: body %q", i, body)
		}
	}
	waitUntil(t, "all connections parked", func() bool { return parkedConns(s) == n })
	for i, c := range cs {
		want := fmt.Sprintf("/b%d", i)
		if resp, body := c.roundTrip(get(want)); resp.StatusCode != 200 || body != want {
			t.Fatalf("conn %d after parking: %d %q, want 200 %q", i, resp.StatusCode, body, want)
		}
	}
	waitUntil(t, "all connections parked again", func() bool { return parkedConns(s) == n })
}

// TestParkFreshConn: a new connection that sends nothing is parked too,
// and served when its first request comes.
func TestParkFreshConn(t *testing.T) {
	s := &Server{}
	ts := startParking(t, s)
	c := ts.connect()
	waitUntil(t, "parked before its first request", func() bool { return parkedConns(s) == 1 })
	if _, body := c.roundTrip(get("/first")); body != "/first" {
		t.Fatalf("body %q", body)
	}
}

// TestParkIdleAfter: a connection is parked once it waited ParkIdleAfter
// in its goroutine, not when its idle timeout comes first; either way it
// is served again.
func TestParkIdleAfter(t *testing.T) {
	for _, tc := range []struct {
		name   string
		after  time.Duration
		parked int
	}{
		{"after_50ms", 50 * time.Millisecond, 1},
		{"idle_timeout_first", time.Hour, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Server{ParkIdleAfter: tc.after}
			ts := startParking(t, s)
			c := ts.connect()
			c.roundTrip(get("/"))
			time.Sleep(tc.after%time.Hour + 100*time.Millisecond)
			waitUntil(t, "parked as expected", func() bool { return parkedConns(s) == tc.parked })
			if _, body := c.roundTrip(get("/again")); body != "/again" {
				t.Fatalf("body %q", body)
			}
		})
	}
}

// TestParkNotEligible: connections that must keep their goroutine are
// not parked: a sub-coarse IdleTimeout, in-memory connections.
func TestParkNotEligible(t *testing.T) {
	for _, tc := range []struct {
		name      string
		srv       *Server
		transport string
	}{
		{"short_idle_timeout", &Server{IdleTimeout: time.Second}, "tcp"},
		{"inmemory", &Server{}, "inmemory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.srv.ParkIdleAfter, tc.srv.Handler = -1, echoPath
			ts := startServer(t, tc.transport, tc.srv)
			c := ts.connect()
			c.roundTrip(get("/"))
			time.Sleep(50 * time.Millisecond)
			if n := parkedConns(tc.srv); n != 0 {
				t.Fatalf("%d connections parked, want 0", n)
			}
			c.expectOpen()
		})
	}
}

// TestParkClientCloses: a client that closes while parked has its fd
// released and its connection accounted for.
func TestParkClientCloses(t *testing.T) {
	s := &Server{}
	ts := startParking(t, s)
	base := openFDs(t)
	const n = 20
	cs := connectServed(ts, n)
	waitUntil(t, "all connections parked", func() bool { return parkedConns(s) == n })
	if got := openFDs(t); got < base+2*n {
		t.Fatalf("%d fds open with %d connections, baseline %d", got, n, base)
	}
	for _, c := range cs {
		c.nc.Close()
	}
	waitUntil(t, "fds released", func() bool { return openFDs(t) <= base })
	waitUntil(t, "connections done", func() bool { return s.active.Load() == 0 && parkedConns(s) == 0 })
}

// TestParkClientResets: a client whose connection is reset (RST, EPOLLHUP
// and EPOLLERR) while parked has its fd released.
func TestParkClientResets(t *testing.T) {
	s := &Server{}
	ts := startParking(t, s)
	base := openFDs(t)
	c := ts.connect()
	c.roundTrip(get("/"))
	waitUntil(t, "parked", func() bool { return parkedConns(s) == 1 })
	c.nc.(*net.TCPConn).SetLinger(0) // close sends RST
	c.nc.Close()
	waitUntil(t, "fd released", func() bool { return openFDs(t) <= base })
	waitUntil(t, "connection done", func() bool { return s.active.Load() == 0 })
}

// TestParkIdleTimeout: a parked connection is closed by the sweep when its
// IdleTimeout expires: not before, and at most a sweep (1 s) after.
func TestParkIdleTimeout(t *testing.T) {
	const idle = 2 * time.Second
	s := &Server{IdleTimeout: idle}
	ts := startParking(t, s)
	c := ts.connect()
	c.roundTrip(get("/"))
	start := time.Now()
	waitUntil(t, "parked", func() bool { return parkedConns(s) == 1 })
	c.nc.SetReadDeadline(time.Now().Add(idle + 3*time.Second)) // the sweep is up to 2 s late
	_, err := c.br.ReadByte()
	took := time.Since(start)
	if err != io.EOF {
		t.Fatalf("read %v, want EOF (closed by the server)", err)
	}
	if took < idle {
		t.Fatalf("closed after %v, before IdleTimeout %v", took, idle)
	}
	t.Logf("closed %v after the response (IdleTimeout %v)", took, idle)
}

// TestParkReadHeaderTimeout: a request head begun after parking is under
// ReadHeaderTimeout (the runtime's read deadline on the fd, which the
// parker's epoll registration does not disturb).
func TestParkReadHeaderTimeout(t *testing.T) {
	s := &Server{ReadHeaderTimeout: 200 * time.Millisecond}
	ts := startParking(t, s)
	c := ts.connect()
	c.roundTrip(get("/"))
	waitUntil(t, "parked", func() bool { return parkedConns(s) == 1 })
	c.sendSync("GET /slow HTTP/1.1\r\n")
	start := time.Now()
	c.expectClosed()
	if took := time.Since(start); took < 200*time.Millisecond {
		t.Fatalf("closed after %v, before ReadHeaderTimeout", took)
	}
}

// TestParkShutdown: Shutdown closes parked connections at once (not at
// the next sweep) and returns.
func TestParkShutdown(t *testing.T) {
	s := &Server{ParkIdleAfter: -1, Handler: echoPath}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	const n = 10
	var cs []*client
	for range n {
		nc, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		c := &client{t: t, nc: nc, br: bufio.NewReader(nc)}
		c.roundTrip(get("/"))
		cs = append(cs, c)
	}
	waitUntil(t, "parked", func() bool { return parkedConns(s) == n })
	ctx, cancel := context.WithTimeout(context.Background(), parkSweep/2)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v, want nil within half a sweep", err)
	}
	<-done
	for _, c := range cs {
		c.expectClosed()
	}
}

// TestParkFDReuse: connections parked and closed one after the other
// reuse the same fd numbers; the kernel drops a closed fd's epoll entry
// and the slot generations drop late events, so each new connection on a
// reused fd is served normally.
func TestParkFDReuse(t *testing.T) {
	s := &Server{}
	ts := startParking(t, s)
	for i := range 30 {
		c := ts.connect()
		want := fmt.Sprintf("/r%d", i)
		if _, body := c.roundTrip(get(want)); body != want {
			t.Fatalf("conn %d: %q", i, body)
		}
		waitUntil(t, "parked", func() bool { return parkedConns(s) == 1 })
		if _, body := c.roundTrip(get(want + "b")); body != want+"b" {
			t.Fatalf("conn %d after parking: %q", i, body)
		}
		waitUntil(t, "parked again", func() bool { return parkedConns(s) == 1 })
		c.nc.Close()
		waitUntil(t, "closed", func() bool { return s.active.Load() == 0 })
	}
}

// TestParkRace: many connections become readable at once, repeatedly,
// with pipelined requests written in pieces split at random points around
// the parking point; every request is answered once, in order.
func TestParkRace(t *testing.T) {
	s := &Server{}
	ts := startParking(t, s)
	const conns, rounds = 64, 8
	var start sync.WaitGroup
	var wg sync.WaitGroup
	gate := make(chan struct{})
	errs := make(chan error, conns)
	for i := range conns {
		start.Add(1)
		wg.Go(func() {
			nc, err := ts.dial()
			if err != nil {
				start.Done()
				errs <- err
				return
			}
			defer nc.Close()
			nc.SetDeadline(time.Now().Add(20 * time.Second))
			br := bufio.NewReader(nc)
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			err = raceRound(nc, br, rng, i, -1) // parked after its answer
			start.Done()
			if err != nil {
				errs <- err
				return
			}
			<-gate // all connections write at once, to parked conns
			for r := range rounds {
				if err := raceRound(nc, br, rng, i, r); err != nil {
					errs <- fmt.Errorf("conn %d round %d: %w", i, r, err)
					return
				}
			}
			nc.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
			if b, err := br.ReadByte(); err == nil {
				errs <- fmt.Errorf("conn %d: %q after the last answer", i, b)
			}
		})
	}
	start.Wait()
	waitUntil(t, "all connections parked", func() bool { return parkedConns(s) == conns })
	close(gate)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// raceRound sends 1..4 pipelined requests in pieces (split at random, a
// pause between pieces so that some arrive after the conn parked) and
// checks each answer.
func raceRound(nc net.Conn, br *bufio.Reader, rng *rand.Rand, i, r int) error {
	k := 1 + rng.IntN(4)
	var paths []string
	var raw strings.Builder
	for j := range k {
		p := fmt.Sprintf("/c%d/r%d/q%d", i, r, j)
		paths = append(paths, p)
		raw.WriteString(get(p))
	}
	b := []byte(raw.String())
	var pieces [][]byte
	var pauses []time.Duration
	for len(b) > 0 {
		n := 1 + rng.IntN(len(b))
		pieces, b = append(pieces, b[:n]), b[n:]
		pauses = append(pauses, time.Duration(rng.IntN(3))*time.Millisecond)
	}
	go func() {
		for j, piece := range pieces {
			if _, err := nc.Write(piece); err != nil {
				return
			}
			time.Sleep(pauses[j])
		}
	}()
	for _, p := range paths {
		resp, err := http.ReadResponse(br, &http.Request{Method: "GET"})
		if err != nil {
			return err
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if string(body) != p {
			return fmt.Errorf("answer %q, want %q", body, p)
		}
	}
	if rng.IntN(2) == 0 {
		time.Sleep(time.Duration(rng.IntN(5)) * time.Millisecond) // let it park
	}
	return nil
}

// TestParkSlowloris: many parked connections wake at once with a head
// they never finish; each is closed by ReadHeaderTimeout without an
// answer, and every fd is released.
func TestParkSlowloris(t *testing.T) {
	const n = 500
	s := &Server{ReadHeaderTimeout: 300 * time.Millisecond}
	ts := startParking(t, s)
	base := openFDs(t)
	cs := connectServed(ts, n)
	waitUntil(t, "all parked", func() bool { return parkedConns(s) == n })
	for _, c := range cs {
		c.sendSync("GET /slow HTTP/1.1\r\nHost: x\r\n")
	}
	for i, c := range cs {
		c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		if b, err := c.br.ReadByte(); err != io.EOF {
			t.Fatalf("conn %d: read %q, %v, want EOF (closed without an answer)", i, b, err)
		}
		c.nc.Close()
	}
	waitUntil(t, "fds released", func() bool { return openFDs(t) <= base })
	waitUntil(t, "connections done", func() bool { return s.active.Load() == 0 })
}

// BenchmarkParkArm measures what one-shot arming costs per park (one
// epoll_ctl MOD under p.mu): the most an edge-triggered registration,
// made once per connection, could save.
func BenchmarkParkArm(b *testing.B) {
	_, sc := tcpPair(b)
	p := getParker()
	c := &conn{srv: &Server{}}
	c.attach(sc)
	p.mu.Lock()
	i := p.slot(c, 0)
	p.mu.Unlock()
	defer func() { p.mu.Lock(); p.empty(i); p.mu.Unlock() }()
	for b.Loop() {
		p.mu.Lock()
		ok := p.arm(c, i)
		p.mu.Unlock()
		if !ok {
			b.Fatal("arm failed")
		}
	}
}

// TestParkMaxWaiting: with parkMaxWaiting connections already waiting
// ParkIdleAfter in their goroutines, the next is parked at once.
func TestParkMaxWaiting(t *testing.T) {
	s := &Server{ParkIdleAfter: time.Hour, IdleTimeout: 2 * time.Hour}
	ts := startParking(t, s)
	parkWaiting.Add(parkMaxWaiting)
	defer parkWaiting.Add(-parkMaxWaiting)
	c := ts.connect()
	c.roundTrip(get("/"))
	waitUntil(t, "parked at once", func() bool { return parkedConns(s) == 1 })
	if _, body := c.roundTrip(get("/again")); body != "/again" {
		t.Fatalf("body %q", body)
	}
}

// TestParkMaxWaitingBusy: with parkMaxWaiting connections already
// waiting, a connection that has served two requests waits
// ParkIdleAfter in its goroutine all the same.
func TestParkMaxWaitingBusy(t *testing.T) {
	s := &Server{ParkIdleAfter: time.Hour, IdleTimeout: 2 * time.Hour}
	ts := startParking(t, s)
	parkWaiting.Add(parkMaxWaiting)
	defer parkWaiting.Add(-parkMaxWaiting)
	c := ts.connect()
	c.roundTrip(get("/"))
	waitUntil(t, "parked at once", func() bool { return parkedConns(s) == 1 })
	c.roundTrip(get("/2"))
	waitUntil(t, "resumed", func() bool { return parkedConns(s) == 0 })
	if _, body := c.roundTrip(get("/3")); body != "/3" {
		t.Fatalf("body %q", body)
	}
	time.Sleep(50 * time.Millisecond) // a sweep of the parker could run
	if n := parkedConns(s); n != 0 {
		t.Fatalf("%d parked after the third request, want 0: busy connections wait", n)
	}
}

// TestParkRequestAsWaitEnds: a request that comes as the ParkIdleAfter
// wait ends is served: its read is not refused for the wait's deadline
// (the connection was reset, the request lost). With a wait of 1 ms,
// requests sent 0 to 1.5 ms apart on 50 connections hit that moment.
func TestParkRequestAsWaitEnds(t *testing.T) {
	s := &Server{ParkIdleAfter: time.Millisecond}
	ts := startParking(t, s)
	errs := make(chan error, 50)
	for range 50 {
		go func() {
			nc, err := ts.dial()
			if err != nil {
				errs <- err
				return
			}
			defer nc.Close()
			nc.SetDeadline(time.Now().Add(10 * time.Second))
			br := bufio.NewReader(nc)
			for j := range 20 {
				time.Sleep(time.Duration(j%4) * 500 * time.Microsecond)
				if _, err := io.WriteString(nc, get("/a")); err != nil {
					errs <- err
					return
				}
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					errs <- fmt.Errorf("request %d: %w", j, err)
					return
				}
				if b, err := io.ReadAll(resp.Body); err != nil || string(b) != "/a" {
					errs <- fmt.Errorf("request %d: body %q, %v", j, b, err)
					return
				}
			}
			errs <- nil
		}()
	}
	for range 50 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestParkAfterWatch: the client-close watch (on by default) and parking
// compose. A connection whose handler asked for the context is parked
// once idle (the watch ended with the handler), is served again from the
// parker, and its next handler's context is cancelled when the client
// closes.
func TestParkAfterWatch(t *testing.T) {
	cancelled := make(chan error, 1)
	s := &Server{Handler: func(c *Ctx) {
		ctx := c.Context()
		if string(c.Request.Path()) == "/wait" {
			select {
			case <-ctx.Done():
			case <-time.After(3 * time.Second):
			}
			cancelled <- ctx.Err()
			return
		}
		echoPath(c)
	}}
	ts := startParking(t, s)
	c := ts.connect()
	if _, body := c.roundTrip(get("/1")); body != "/1" {
		t.Fatalf("body %q", body)
	}
	waitUntil(t, "the connection parked after a watched request", func() bool { return parkedConns(s) == 1 })
	if _, body := c.roundTrip(get("/2")); body != "/2" {
		t.Fatalf("body %q after parking", body)
	}
	waitUntil(t, "the connection parked again", func() bool { return parkedConns(s) == 1 })
	c.sendSync(get("/wait"))
	time.Sleep(20 * time.Millisecond)
	c.nc.Close()
	if err := <-cancelled; err != context.Canceled {
		t.Fatalf("context after resume: %v, want context.Canceled", err)
	}
}

// TestParkArmInput: a connection with input when it would be parked is
// not armed (errParkInput): its goroutine reads it, without the hand-off
// to a worker. Without input, its first arm adds its fd (parkAdded) and
// the next re-arms it; a fd already in the set (a shed connection taken
// up again by a new conn) is armed all the same.
func TestParkArmInput(t *testing.T) {
	cc, sc := tcpPair(t)
	p := getParker()
	c := &conn{srv: &Server{}}
	c.attach(sc)
	// p.mu is held throughout: the parker cannot take the slot out when
	// the armed fd turns readable; emptying it drops the event.
	p.mu.Lock()
	defer p.mu.Unlock()
	i := p.slot(c, 0)
	defer p.empty(i)
	for n := range 2 {
		if !p.arm(c, i) || !c.parkAdded {
			t.Fatalf("arm %d without input: %v, parkAdded %v", n, p.err, c.parkAdded)
		}
	}
	c.parkAdded = false // as for a conn taken up again: the fd is in the set
	if !p.arm(c, i) {
		t.Fatalf("arm of a fd in the set: %v", p.err)
	}
	if _, err := cc.Write([]byte("G")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); !c.hasInput(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no input")
		}
	}
	if p.arm(c, i) || p.err != errParkInput {
		t.Fatalf("arm with input: %v; want false, errParkInput", p.err)
	}
}

// TestParkBusyNotCounted: only new connections (before their second
// request) count toward parkMaxWaiting while they wait ParkIdleAfter: a
// busy one waits uncounted, so busy connections never make new ones park
// at once.
func TestParkBusyNotCounted(t *testing.T) {
	s := &Server{ParkIdleAfter: time.Hour, IdleTimeout: 2 * time.Hour}
	ts := startParking(t, s)
	base := parkWaiting.Load()
	c := ts.connect()
	c.roundTrip(get("/"))
	waitUntil(t, "counted", func() bool { return parkWaiting.Load() == base+1 })
	c.roundTrip(get("/2"))
	c.roundTrip(get("/3"))
	waitUntil(t, "uncounted", func() bool { return parkWaiting.Load() == base })
	if _, body := c.roundTrip(get("/4")); body != "/4" {
		t.Fatalf("body %q", body)
	}
	if n := parkedConns(s); n != 0 {
		t.Fatalf("%d parked, want 0", n)
	}
}
