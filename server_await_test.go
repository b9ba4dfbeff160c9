package brisk

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The response written inside the wait for the next request
// (server_await.go): these tests run with parking off and with the wait
// before parking, each set here so that BRISK_TEST_PARK leaves it.

// awaitModes are the two waits that write the response inside the wait:
// awaitRequest's (parking off) and the wait before parking.
var awaitModes = []struct {
	name string
	set  func(*Server)
}{
	{"noPark", func(s *Server) { s.NoParkIdle = true }},
	{"parkAfter", func(s *Server) { s.ParkIdleAfter = 10 * time.Second }},
}

// onlyConn returns the server's only connection, once it has one.
func onlyConn(t *testing.T, s *Server) *conn {
	t.Helper()
	var c *conn
	waitFor(t, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		for k := range s.conns {
			c = k
		}
		return len(s.conns) == 1
	})
	return c
}

// idleState waits until c waits for a request and returns its state:
// stateIdleBlind for a wait that wrote the response and did not peek,
// stateIdle for one that peeked.
func idleState(t *testing.T, c *conn) int32 {
	t.Helper()
	var st int32
	waitFor(t, func() bool {
		st = c.state.Load()
		return st == stateIdle || st == stateIdleBlind
	})
	return st
}

// TestAwaitSkipsPeek checks that a keep-alive connection whose client
// waits for each response waits for its next request without a peek (the
// response written inside the wait) once past its probation, and that
// one whose client pipelined peeks from then on.
func TestAwaitSkipsPeek(t *testing.T) {
	if !canPeek {
		t.Skip("no peek here: every wait reads")
	}
	for _, m := range awaitModes {
		t.Run(m.name, func(t *testing.T) {
			s := &Server{Handler: echoPath}
			m.set(s)
			ts := startServer(t, "tcp", s)
			cl := ts.connect()
			for i := 1; i <= sendProbation+3; i++ {
				if _, body := cl.roundTrip(get("/k" + strconv.Itoa(i))); body != "/k"+strconv.Itoa(i) {
					t.Fatalf("body %q", body)
				}
				want := stateIdleBlind
				if i <= sendProbation {
					want = stateIdle
				}
				if st := idleState(t, onlyConn(t, s)); st != want {
					t.Fatalf("request %d: idle state %d, want %d", i, st, want)
				}
			}
			cl.sendSync(get("/a") + get("/b")) // pipelined: read together
			for _, want := range []string{"/a", "/b"} {
				if _, body := cl.read("GET"); body != want {
					t.Fatalf("body %q, want %q", body, want)
				}
			}
			c := onlyConn(t, s)
			if st := idleState(t, c); st != stateIdle || !c.pipelined {
				t.Fatalf("after pipelining: idle state %d, pipelined %v; want stateIdle (a peek), true", st, c.pipelined)
			}
			cl.expectOpen()
			if st := idleState(t, c); st != stateIdle {
				t.Fatalf("pipelined connection: idle state %d, want stateIdle (a peek)", st)
			}
		})
	}
}

// trust makes cl's connection trusted: past its probation, its client
// never sent ahead.
func trust(cl *client) {
	for range sendProbation {
		cl.roundTrip(get("/first"))
	}
}

// TestAwaitProbationSeesPipelining sends a second request while the
// first one's handler runs, on a new connection: its wait, on probation,
// peeks before it writes, sees the request, answers it at once and
// marks the connection pipelined.
func TestAwaitProbationSeesPipelining(t *testing.T) {
	if !canPeek {
		t.Skip("no peek here: every wait reads")
	}
	for _, m := range awaitModes {
		t.Run(m.name, func(t *testing.T) {
			s, ts, entered, release := blockingServer(t, m.set)
			cl := ts.connect()
			cl.sendSync(get("/block"))
			<-entered
			c := onlyConn(t, s)
			cl.sendSync(get("/second"))
			waitFor(t, c.hasInput)
			time.Sleep(settle)
			close(release)
			for _, want := range []string{"/block", "/second"} {
				if _, body := cl.read("GET"); body != want {
					t.Fatalf("body %q, want %q", body, want)
				}
			}
			if st := idleState(t, c); st != stateIdle || !c.pipelined {
				t.Fatalf("idle state %d, pipelined %v; want stateIdle (a peek), true", st, c.pipelined)
			}
		})
	}
}

// settle is how long the tests let the runtime's poller note input that
// came while the handler ran: with every goroutine blocked, an idle
// thread polls at once. Noted (and discarded by the next wait's start),
// the input's arrival no longer wakes a wait; not yet noted, it does.
const settle = 50 * time.Millisecond

// blockingServer starts a server (in mode m) whose handler, for /block,
// signals entered and waits for release; other paths echo.
func blockingServer(t *testing.T, set func(*Server)) (*Server, *testServer, chan struct{}, chan struct{}) {
	entered, release := make(chan struct{}, 1), make(chan struct{})
	s := &Server{Handler: func(c *Ctx) {
		if string(c.Request.Path()) == "/block" {
			entered <- struct{}{}
			<-release
		}
		echoPath(c)
	}}
	set(s)
	return s, startServer(t, "tcp", s), entered, release
}

// TestAwaitPipelinedDuringHandler sends a second request while the first
// one's handler runs, on a connection trusted until then: its arrival is
// not seen by a wait that does not peek, so it is answered once the wait
// looks (within sendWaitBound), and the connection peeks from then on.
func TestAwaitPipelinedDuringHandler(t *testing.T) {
	if !canPeek {
		t.Skip("no peek here: every wait reads")
	}
	for _, m := range awaitModes {
		t.Run(m.name, func(t *testing.T) {
			s, ts, entered, release := blockingServer(t, m.set)
			cl := ts.connect()
			trust(cl)
			cl.sendSync(get("/block"))
			<-entered
			c := onlyConn(t, s)
			cl.sendSync(get("/second"))
			waitFor(t, c.hasInput) // in the socket before the handler returns
			time.Sleep(settle)
			released := time.Now()
			close(release)
			cl.nc.SetReadDeadline(released.Add(sendWaitBound + 2*time.Second))
			if _, body := cl.read("GET"); body != "/block" {
				t.Fatalf("body %q", body)
			}
			if _, body := cl.read("GET"); body != "/second" {
				t.Fatalf("body %q", body)
			}
			if d := time.Since(released); d > sendWaitBound+time.Second {
				t.Errorf("pipelined request answered after %v, bound %v", d, sendWaitBound)
			}
			if st := idleState(t, c); st != stateIdle || !c.pipelined {
				t.Fatalf("idle state %d, pipelined %v; want stateIdle (a peek), true", st, c.pipelined)
			}
			cl.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
			cl.expectOpen()
		})
	}
}

// TestAwaitClientClosesDuringHandler half-closes the client's side while
// the handler runs: the server sends the response, then sees the EOF
// within sendWaitBound and closes the connection.
func TestAwaitClientClosesDuringHandler(t *testing.T) {
	if !canPeek {
		t.Skip("no peek here: every wait reads")
	}
	for _, m := range awaitModes {
		t.Run(m.name, func(t *testing.T) {
			s, ts, entered, release := blockingServer(t, m.set)
			cl := ts.connect()
			trust(cl)
			cl.sendSync(get("/block"))
			<-entered
			c := onlyConn(t, s)
			cl.nc.(*net.TCPConn).CloseWrite()
			waitFor(t, c.hasInput) // the FIN is there before the handler returns
			time.Sleep(settle)
			released := time.Now()
			close(release)
			cl.nc.SetReadDeadline(released.Add(sendWaitBound + 2*time.Second))
			if _, body := cl.read("GET"); body != "/block" {
				t.Fatalf("body %q", body)
			}
			if b, err := cl.br.ReadByte(); err != io.EOF {
				t.Fatalf("after the response: %q, %v; want EOF", b, err)
			}
			if d := time.Since(released); d > sendWaitBound+time.Second {
				t.Errorf("connection closed after %v, bound %v", d, sendWaitBound)
			}
			waitFor(t, func() bool { return s.active.Load() == 0 }) // no connection left
		})
	}
}

// TestAwaitShutdownServesUnseen shuts the server down while a trusted
// connection waits, without having peeked, over a request its wait did
// not see: the request is answered (Connection: close), as it is when
// the wait sees it, not dropped with the idle connections.
func TestAwaitShutdownServesUnseen(t *testing.T) {
	if !canPeek {
		t.Skip("no peek here: every wait reads")
	}
	s, ts, entered, release := blockingServer(t, func(s *Server) { s.NoParkIdle = true })
	cl := ts.connect()
	trust(cl)
	cl.sendSync(get("/block"))
	<-entered
	c := onlyConn(t, s)
	cl.sendSync(get("/second"))
	waitFor(t, c.hasInput)
	time.Sleep(settle)
	close(release)
	if _, body := cl.read("GET"); body != "/block" {
		t.Fatalf("body %q", body)
	}
	if st := idleState(t, c); st != stateIdleBlind {
		t.Skipf("the wait saw the request (state %d): nothing to test", st)
	}
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		done <- s.Shutdown(ctx)
	}()
	resp, body := cl.read("GET")
	if body != "/second" || !resp.Close {
		t.Fatalf("body %q, close %v; want /second, true", body, resp.Close)
	}
	if err := <-done; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}

// TestAwaitSyscalls counts, with perf's system call tracepoints, the
// recvfrom calls (the peeks) of this process while a client that waits
// for each response sends keep-alive requests: the waits do not peek.
// Skipped without perf or the permission to trace.
func TestAwaitSyscalls(t *testing.T) {
	if !canPeek || testing.Short() {
		t.Skip("no peek here, or -short")
	}
	if _, err := exec.LookPath("perf"); err != nil {
		t.Skip("no perf")
	}
	for _, m := range awaitModes {
		t.Run(m.name, func(t *testing.T) {
			s := &Server{Handler: echoPath}
			m.set(s)
			ts := startServer(t, "tcp", s)
			nc, err := ts.dial()
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			br := bufio.NewReader(nc)
			roundTrip := func() {
				if _, err := io.WriteString(nc, get("/")); err != nil {
					t.Fatal(err)
				}
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					t.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
			}
			roundTrip() // the first wait has no response to write: it peeks
			out, err := os.CreateTemp(t.TempDir(), "perf")
			if err != nil {
				t.Fatal(err)
			}
			perf := exec.Command("perf", "stat", "-x,", "-o", out.Name(), "-e", "syscalls:sys_enter_recvfrom",
				"-p", strconv.Itoa(os.Getpid()))
			if err := perf.Start(); err != nil {
				t.Skipf("perf: %v", err)
			}
			time.Sleep(300 * time.Millisecond) // perf attaches
			const n = 200
			for range n {
				roundTrip()
			}
			perf.Process.Signal(os.Interrupt)
			perf.Wait()
			b, _ := os.ReadFile(out.Name())
			var calls int
			for _, line := range strings.Split(string(b), "\n") {
				if f := strings.Split(line, ","); len(f) > 2 && strings.Contains(line, "recvfrom") {
					if calls, err = strconv.Atoi(f[0]); err != nil {
						t.Skipf("perf could not count: %s", b)
					}
				}
			}
			if !strings.Contains(string(b), "recvfrom") {
				t.Skipf("perf could not count: %s", b)
			}
			if calls > n/10 {
				t.Errorf("%d recvfrom calls for %d requests, want none per request", calls, n)
			}
			t.Logf("%d recvfrom calls for %d requests", calls, n)
		})
	}
}
