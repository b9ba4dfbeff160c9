package brisk

import (
	"bufio"
	"fmt"
	"net"
	"reflect"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// shedConns returns how many parked connections of s have shed their conn.
func shedConns(s *Server) int {
	p := theParker.p.Load()
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, sl := range p.slots {
		if sl.srv == s && sl.c == nil {
			n++
		}
	}
	return n
}

// TestParkShedServesAgain: a connection parked through a sweep sheds its
// conn and is served again by another, carrying its request count
// (MaxRequestsPerConn) and write deadline state.
func TestParkShedServesAgain(t *testing.T) {
	s := &Server{MaxRequestsPerConn: 3, WriteTimeout: 5 * time.Second}
	ts := startParking(t, s)
	c := ts.connect()
	for i, wantClose := range []bool{false, false, true} {
		if i > 0 {
			waitUntil(t, "parked", func() bool { return parkedConns(s) == 1 })
			sweepTwice()
			if n := shedConns(s); n != 1 {
				t.Fatalf("request %d: %d connections shed, want 1", i+1, n)
			}
		}
		resp, body := c.roundTrip(get("/x"))
		if body != "/x" || resp.Close != wantClose {
			t.Fatalf("request %d: %q, Connection: close %v, want %v", i+1, body, resp.Close, wantClose)
		}
	}
	c.expectClosed()
}

// TestParkShedShutdown: Shutdown closes shed connections too.
func TestParkShedShutdown(t *testing.T) {
	s := &Server{}
	ts := startParking(t, s)
	c := ts.connect()
	c.roundTrip(get("/"))
	waitUntil(t, "parked", func() bool { return parkedConns(s) == 1 })
	sweepTwice()
	if shedConns(s) != 1 {
		t.Fatal("not shed")
	}
	c.nc.SetReadDeadline(time.Now().Add(3 * time.Second))
	go s.Shutdown(t.Context())
	if _, err := c.br.ReadByte(); err == nil || isTimeout(err) {
		t.Fatalf("read %v, want the connection closed by Shutdown", err)
	}
}

// TestConnIdleCarriesState places every field of conn: carried by a shed
// connection (connIdle), or set anew for each connection, request or wait.
// A new field fails here until it is placed.
func TestConnIdleCarriesState(t *testing.T) {
	carried := map[string]bool{"nc": true, "nreq": true, "wdeadline": true, "writes": true,
		"proxy": true, "nread": true, "nwritten": true, "readMark": true, "reported": true, "pipelined": true}
	renewed := map[string]string{
		"srv": "per conn object", "lim": "per conn object", "readable": "per conn object",
		"raw":     "attach",
		"peekRaw": "attach", "cut": "attach clears it; Close marks active conns only, never parked ones",
		"idleSince": "attach: a conn taken up again is about to read its request",
		"state":     "attach; resume moves it to active",
		"rbuf":      "nil while parked", "wbuf": "nil while parked",
		"in":       "empty and without storage while parked; attach discards",
		"tls":      "nil: TLS connections are not parked",
		"hijacked": "false: a hijacked connection is not parked; attach clears it",
		"http2":    "false: negotiate sets it; only a bridged (in-memory) connection has it, and none is parked",
		"h3":       "false: set with http2 on a bridged (in-memory) connection, which is never parked",
		"werr":     "nil: park only follows a successful flush",
		"deadline": "0: park clears the read deadline; attach sets 0",
		"ctx":      "reset per request (resetExchange, beginRequest)", "body": "reset per request",
		"deferredRead": "false: park sets the read deadline, which clears it; attach clears it", "deferredAt": "read only when deferredRead",
		"watch":      "per conn object, not running: the watch ends with the handler (runHandler)",
		"watchReady": "per request (resetWatch)",
		"keepAlive":  "per request", "headTimer": "per head",
		"waited": "per wait", "peek": "per wait",
		"parkAdded":  "attach clears it: a shed connection taken up again is armed with ADD, whose EEXIST falls back to MOD",
		"proxyStore": "storage of proxy, which is carried: recycle drops it",
		"done":       "per conn object; empty while parked: the flush before park delivers it",
		"wclock":     "describes the write in progress: none while parked; attach clears its tick",
		"startRead":  "per read (beginHook): a new conn object takes a new start",
		"start":      "per read (beginHook)", "respBegin": "per request (beginHook)",
		"rejected": "set by reject, whose request closes the connection; attach clears it",
	}
	typ := reflect.TypeFor[conn]()
	for _, f := range reflect.VisibleFields(typ) {
		if f.Anonymous {
			continue // connStats's fields are placed one by one
		}
		if name := f.Name; !carried[name] && renewed[name] == "" {
			t.Errorf("conn.%s is neither carried by connIdle nor listed as renewed: place it", name)
		}
	}
	idle := reflect.TypeFor[connIdle]()
	for name := range carried {
		if _, ok := idle.FieldByName(name); !ok {
			t.Errorf("connIdle has no field %s", name)
		}
	}
}

// detachedConns returns the fds of the parked connections of s that hold
// only a fd.
func detachedConns(s *Server) []int {
	p := theParker.p.Load()
	p.mu.Lock()
	defer p.mu.Unlock()
	var fds []int
	for _, sl := range p.slots {
		if sl.srv == s && sl.c == nil && sl.idle.nc == nil {
			fds = append(fds, int(sl.idle.fd))
		}
	}
	return fds
}

// sweepTwice runs the two sweeps that take a connection parked before
// them out of the parker: the first marks it old, the second sheds its
// conn or detaches it.
func sweepTwice() {
	p := theParker.p.Load()
	p.sweep(time.Now())
	p.sweep(time.Now())
}

// parkAndDetach waits until n connections of s are parked and runs the
// two sweeps that detach them.
func parkAndDetach(t *testing.T, s *Server, n int) []int {
	t.Helper()
	waitUntil(t, "parked", func() bool { return parkedConns(s) == n })
	sweepTwice()
	fds := detachedConns(s)
	if len(fds) != n {
		t.Fatalf("%d connections detached, want %d", len(fds), n)
	}
	return fds
}

// TestParkDetach: a connection parked through a sweep is held by its fd
// alone (one fd, as before), is served again on a new net.Conn with the
// TCP options it had, and keeps its request count.
func TestParkDetach(t *testing.T) {
	type opts struct{ noDelay, keepAlive, keepIdle int }
	got := make(chan opts, 1)
	s := &Server{MaxRequestsPerConn: 2, Handler: func(c *Ctx) {
		rc, _ := c.c.nc.(*net.TCPConn).SyscallConn()
		rc.Control(func(fd uintptr) {
			if c.c.nreq == 1 { // options a handler (or the listener) may set; FileConn resets them
				unix.SetsockoptInt(int(fd), unix.IPPROTO_TCP, unix.TCP_NODELAY, 0)
				unix.SetsockoptInt(int(fd), unix.IPPROTO_TCP, unix.TCP_KEEPIDLE, 77)
			}
			get := func(level, opt int) int { v, _ := unix.GetsockoptInt(int(fd), level, opt); return v }
			got <- opts{get(unix.IPPROTO_TCP, unix.TCP_NODELAY), get(unix.SOL_SOCKET, unix.SO_KEEPALIVE),
				get(unix.IPPROTO_TCP, unix.TCP_KEEPIDLE)}
		})
		echoPath(c)
	}}
	ts := startParking(t, s)
	base := openFDs(t)
	c := ts.connect()
	c.roundTrip(get("/a"))
	before := <-got
	parkAndDetach(t, s, 1)
	if n := openFDs(t); n != base+2 {
		t.Fatalf("%d fds open, want %d: the client's and the detached one", n, base+2)
	}
	resp, body := c.roundTrip(get("/b"))
	if body != "/b" || !resp.Close {
		t.Fatalf("second request: %q, Connection: close %v; want /b, close (MaxRequestsPerConn)", body, resp.Close)
	}
	if after := <-got; after != before || before != (opts{0, 1, 77}) {
		t.Fatalf("options after reattach %+v, before detach %+v; want {0 1 77} both", after, before)
	}
	c.expectClosed()
	waitUntil(t, "fds released", func() bool { return openFDs(t) <= base+1 })
}

// TestParkDetachClientCloses: a detached connection whose client closes
// or resets is closed, its fd released and the connection accounted for.
func TestParkDetachClientCloses(t *testing.T) {
	for _, reset := range []bool{false, true} {
		s := &Server{}
		ts := startParking(t, s)
		base := openFDs(t)
		const n = 10
		cs := connectServed(ts, n)
		parkAndDetach(t, s, n)
		for _, c := range cs {
			if reset {
				c.nc.(*net.TCPConn).SetLinger(0)
			}
			c.nc.Close()
		}
		waitUntil(t, "fds released", func() bool { return openFDs(t) <= base })
		waitUntil(t, "connections done", func() bool { return s.active.Load() == 0 && len(detachedConns(s)) == 0 })
	}
}

// TestParkDetachIdleTimeout: the sweep closes a detached connection
// whose idle timeout expired.
func TestParkDetachIdleTimeout(t *testing.T) {
	s := &Server{IdleTimeout: 3 * time.Second}
	ts := startParking(t, s)
	base := openFDs(t)
	c := ts.connect()
	c.roundTrip(get("/"))
	parkAndDetach(t, s, 1)
	theParker.p.Load().sweep(time.Now().Add(4 * time.Second))
	c.expectClosed()
	waitUntil(t, "fd released", func() bool { return openFDs(t) <= base+1 && s.active.Load() == 0 })
}

// TestParkConnStateNotDetached: with ConnState set, a shed connection
// keeps its net.Conn, the one ConnState names it by.
func TestParkConnStateNotDetached(t *testing.T) {
	var mu sync.Mutex
	seen := map[net.Conn]bool{}
	s := &Server{ConnState: func(nc net.Conn, _ ConnState) { mu.Lock(); seen[nc] = true; mu.Unlock() }}
	ts := startParking(t, s)
	c := ts.connect()
	c.roundTrip(get("/"))
	waitUntil(t, "parked", func() bool { return parkedConns(s) == 1 })
	sweepTwice()
	if shedConns(s) != 1 || len(detachedConns(s)) != 0 {
		t.Fatalf("%d shed, %d detached; want 1 shed, none detached", shedConns(s), len(detachedConns(s)))
	}
	c.roundTrip(get("/"))
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 {
		t.Fatalf("ConnState saw %d net.Conns for one connection", len(seen))
	}
}

// BenchmarkParkReattach measures what a wake from the detached state
// adds: the dup and options read of detach, then reattach (net.FileConn
// and the options put back) and the close of the new net.Conn.
func BenchmarkParkReattach(b *testing.B) {
	_, sc := tcpPair(b)
	p := getParker()
	rc, _ := sc.(*net.TCPConn).SyscallConn()
	for b.Loop() {
		var in connIdle
		rc.Control(func(fd uintptr) {
			dup, _ := unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0)
			in = connIdle{fd: int32(dup), opts: readSockOpts(dup)}
		})
		nc, err := p.reattach(&in)
		if err != nil {
			b.Fatal(err)
		}
		nc.Close()
	}
}

// TestParkDetachUnix: a Unix-socket connection is detached and served
// again on a new *net.UnixConn.
func TestParkDetachUnix(t *testing.T) {
	path := t.TempDir() + "/s"
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Skipf("no Unix sockets: %v", err)
	}
	types := make(chan string, 2)
	s := &Server{ParkIdleAfter: -1, Handler: func(c *Ctx) {
		types <- fmt.Sprintf("%T", c.c.nc)
		echoPath(c)
	}}
	getParker()
	go s.Serve(ln)
	t.Cleanup(func() { s.Shutdown(t.Context()) })
	nc, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	c := &client{t: t, nc: nc, br: bufio.NewReader(nc)}
	c.roundTrip(get("/a"))
	parkAndDetach(t, s, 1)
	if _, body := c.roundTrip(get("/b")); body != "/b" {
		t.Fatalf("body %q after reattach", body)
	}
	if a, b := <-types, <-types; a != "*net.UnixConn" || b != a {
		t.Fatalf("served on %s, then %s; want *net.UnixConn both", a, b)
	}
}
