//go:build !race

package brisk

import (
	"context"
	"net"
	"testing"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
)

// TestRejectBusyAllocs is the allocation budget of a connection refused
// at MaxConns: 1, the goroutine startConn answers it on (as for a served
// connection), so that a flood of connections over the limit costs the
// accept loop no more than the ones it serves. The 503 leaves in one
// write (its bytes are TestMaxConns's).
func TestRejectBusyAllocs(t *testing.T) {
	ln := fakenet.NewListener()
	s := &Server{Handler: echoPath, MaxConns: 1}
	go s.Serve(ln)
	defer s.Shutdown(context.Background())
	held, peer := net.Pipe() // the one connection served, never closed by its client
	defer peer.Close()
	ln.Push(held)
	const runs = 99
	conns := make([]*fakenet.Conn, runs+4) // each AllocsPerRun calls once more, first
	for i := range conns {
		conns[i] = fakenet.NewConn(nil, 0, 0)
	}
	next := 0
	reject := func() {
		c := conns[next]
		next++
		ln.Push(c)
		<-c.Done()
	}
	reject() // warm the pools
	if c := conns[0]; c.Writes() != 1 || c.Written() < len("HTTP/1.1 503 Service Unavailable\r\n") {
		t.Fatalf("rejected connection: %d bytes in %d writes, want one write of the 503", c.Written(), c.Writes())
	}
	// The fewest of three measurements: AllocsPerRun counts every
	// goroutine's allocations, and a goroutine an earlier test left
	// winding down can add to one of them; a rejection that allocates
	// does so in all three.
	n := testing.AllocsPerRun(runs/3, reject)
	for range 2 {
		n = min(n, testing.AllocsPerRun(runs/3, reject))
	}
	if n > 1 {
		t.Errorf("%.2f allocations per rejected connection, budget 1", n)
	}
}
