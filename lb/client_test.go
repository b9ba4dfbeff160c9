package lb

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// killableListener records its connections so that kill can close the
// listener and all of them at once, as a crashed server would.
type killableListener struct {
	net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func (l *killableListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.conns = append(l.conns, c)
		l.mu.Unlock()
	}
	return c, err
}

func (l *killableListener) kill() {
	l.Listener.Close()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Close()
	}
}

// sendLog records the times of the dials and writes to each address.
type sendLog struct {
	mu     sync.Mutex
	writes map[string][]time.Time
}

type loggedConn struct {
	net.Conn
	log  *sendLog
	addr string
	fail *atomic.Int64 // the time of the first I/O error of any logged conn
}

func (c *loggedConn) Write(p []byte) (int, error) {
	c.log.mu.Lock()
	c.log.writes[c.addr] = append(c.log.writes[c.addr], time.Now())
	c.log.mu.Unlock()
	n, err := c.Conn.Write(p)
	if err != nil {
		c.fail.CompareAndSwap(0, time.Now().UnixNano())
	}
	return n, err
}

func (c *loggedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil {
		c.fail.CompareAndSwap(0, time.Now().UnixNano())
	}
	return n, err
}

// TestClient balances GETs over three brisk servers, one killed
// mid-run: no request fails (each failed on the dead one is sent to
// another), none is written to the dead server once it is in its penalty
// period (bar requests that chose it just before), and the live ones
// share the load.
func TestClient(t *testing.T) {
	var addrs []string
	var lns []*killableListener
	served := make([]atomic.Int64, 3)
	for i := range 3 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		kl := &killableListener{Listener: ln}
		s := &brisk.Server{Handler: func(c *brisk.Ctx) { served[i].Add(1); c.Response.SetBodyString("ok") }}
		go s.Serve(kl)
		t.Cleanup(func() { s.Shutdown(context.Background()) })
		addrs = append(addrs, ln.Addr().String())
		lns = append(lns, kl)
	}
	log := &sendLog{writes: map[string][]time.Time{}}
	var d net.Dialer
	// firstFail is the first failure seen talking to the killed server (a
	// dial refused, a write or read failing): the server is marked down
	// right after it.
	var firstFail atomic.Int64
	lb := &Client{Addrs: addrs, HealthPenalty: time.Minute, ClientConfig: brisk.ClientConfig{
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			log.mu.Lock() // a dial attempt counts as a send: the port may be closed
			log.writes[addr] = append(log.writes[addr], time.Now())
			log.mu.Unlock()
			nc, err := d.DialContext(ctx, network, addr)
			if err != nil {
				firstFail.CompareAndSwap(0, time.Now().UnixNano())
				return nil, err
			}
			// Unwrapped net.Conn: the client uses Write, not the raw path.
			return &loggedConn{Conn: nc, log: log, addr: addr, fail: &firstFail}, nil
		},
	}}
	const workers, perWorker, killAt = 4, 250, 300
	var sent, failed atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var req brisk.Request
			var resp brisk.Response
			req.SetURI("http://service/")
			for range perWorker {
				if sent.Add(1) == killAt {
					lns[1].kill()
				}
				if err := lb.Do(&req, &resp); err != nil || string(resp.Body()) != "ok" {
					failed.Add(1)
					t.Errorf("request failed: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	down := lb.servers[1].downUntil.Load()
	if down == 0 {
		t.Fatal("the killed server was never put in its penalty period")
	}
	if firstFail.Load() == 0 {
		t.Fatal("nothing sent to the killed server failed")
	}
	markedAt := time.Unix(0, firstFail.Load())
	late := 0
	for _, w := range log.writes[addrs[1]] {
		if w.After(markedAt) {
			late++
		}
	}
	t.Logf("served %d %d %d; %d dials and writes to the dead server, %d after its penalty began",
		served[0].Load(), served[1].Load(), served[2].Load(), len(log.writes[addrs[1]]), late)
	// After the first failure only the failed request's own redial (a GET
	// cut off on a kept-alive connection is retried by its HostClient)
	// and the requests that chose the server before it was marked down
	// (at most one per other worker) may reach it.
	if late > workers || failed.Load() > 0 {
		t.Errorf("%d dials or writes to the dead server after its first failure, %d requests failed; want <= %d, 0",
			late, failed.Load(), workers)
	}
	// A GET the dead server's handler ran but whose response the kill cut
	// off is retried elsewhere and served twice: at most one per other
	// worker, each having one request in flight.
	total := served[0].Load() + served[1].Load() + served[2].Load()
	if total < workers*perWorker || total > workers*perWorker+workers-1 {
		t.Errorf("served %d, want %d to %d", total, workers*perWorker, workers*perWorker+workers-1)
	}
	for _, i := range []int{0, 2} {
		if served[i].Load() < workers*perWorker/10 { // least pending, not round robin
			t.Errorf("server %d served %d: not balanced", i, served[i].Load())
		}
	}
}
