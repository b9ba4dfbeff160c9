package dnscache

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// startServer serves "ok" on a loopback port until the test ends and
// returns the port.
func startServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &brisk.Server{
		Handler: func(c *brisk.Ctx) { c.Response.SetBodyString("ok") },
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	done := make(chan struct{})
	go func() { s.Serve(ln); close(done) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Shutdown(ctx)
		<-done
	})
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// TestLookupTimeout: a look-up is bounded like the dial it serves.
func TestLookupTimeout(t *testing.T) {
	if lookupTimeout != brisk.DefaultDialTimeout {
		t.Fatalf("lookupTimeout %v, want brisk.DefaultDialTimeout %v", lookupTimeout, brisk.DefaultDialTimeout)
	}
}

// countingResolver answers every name with 127.0.0.1 after delay,
// counting the look-ups.
type countingResolver struct {
	n     atomic.Int64
	delay time.Duration
}

func (r *countingResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	r.n.Add(1)
	time.Sleep(r.delay)
	if host == "fail.test" {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
}

// TestCache: concurrent dials of one name share one look-up; later
// dials within the TTL use it; after the TTL the name is looked up again;
// a failed look-up is not kept.
func TestCache(t *testing.T) {
	port := startServer(t)
	r := &countingResolver{delay: 50 * time.Millisecond}
	d := &Cache{Resolver: r, TTL: 300 * time.Millisecond}
	c := brisk.Client{ClientConfig: brisk.ClientConfig{Dial: d.DialContext, MaxConnsPerHost: -1}}
	get := func() error {
		var req brisk.Request
		var resp brisk.Response
		req.SetURI("http://service.test:" + port + "/")
		req.Header.Set("Connection", "close")
		return c.Do(&req, &resp)
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if err := get(); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := r.n.Load(); n != 1 {
		t.Fatalf("20 concurrent dials: %d look-ups, want 1", n)
	}
	if err := get(); err != nil || r.n.Load() != 1 {
		t.Fatalf("dial within the TTL: err %v, %d look-ups, want 1", err, r.n.Load())
	}
	time.Sleep(350 * time.Millisecond)
	if err := get(); err != nil || r.n.Load() != 2 {
		t.Fatalf("dial after the TTL: err %v, %d look-ups, want 2", err, r.n.Load())
	}
	for want := int64(3); want <= 4; want++ {
		_, err := d.DialContext(context.Background(), "tcp", "fail.test:80")
		var de *net.DNSError
		if !errors.As(err, &de) || r.n.Load() != want {
			t.Fatalf("failed name: err %v, %d look-ups, want a *net.DNSError, %d", err, r.n.Load(), want)
		}
	}
}

// cachedNames returns the names d holds.
func cachedNames(d *Cache) map[string]bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	names := map[string]bool{}
	for name := range d.entries {
		names[name] = true
	}
	return names
}

// TestCachePrune: the cache holds at most MaxEntries names, dropping
// the one that expires first; entries past their TTL and failed look-ups
// are dropped when a new name is looked up.
func TestCachePrune(t *testing.T) {
	ctx := context.Background()
	t.Run("max_entries", func(t *testing.T) {
		r := &countingResolver{}
		d := &Cache{Resolver: r, MaxEntries: 3}
		for _, name := range []string{"a.test", "b.test", "c.test", "d.test"} {
			if _, err := d.lookup(ctx, name); err != nil {
				t.Fatal(err)
			}
		}
		if got := cachedNames(d); len(got) != 3 || got["a.test"] || !got["d.test"] {
			t.Fatalf("cached %v, want b, c, d", got)
		}
		d.lookup(ctx, "b.test")
		if n := r.n.Load(); n != 4 {
			t.Fatalf("%d look-ups, want 4: b.test is cached", n)
		}
	})
	t.Run("expired_and_failed", func(t *testing.T) {
		r := &countingResolver{}
		d := &Cache{Resolver: r, TTL: 50 * time.Millisecond}
		d.lookup(ctx, "a.test")
		d.lookup(ctx, "fail.test")
		d.lookup(ctx, "b.test")
		time.Sleep(60 * time.Millisecond)
		d.lookup(ctx, "c.test")
		if got := cachedNames(d); len(got) != 1 || !got["c.test"] {
			t.Fatalf("cached %v, want c.test alone", got)
		}
	})
	t.Run("default_bound", func(t *testing.T) {
		d := &Cache{Resolver: &countingResolver{}}
		for i := range DefaultMaxEntries + 10 {
			d.lookup(ctx, fmt.Sprintf("n%d.test", i))
		}
		if n := len(cachedNames(d)); n != DefaultMaxEntries {
			t.Fatalf("%d names cached, want %d", n, DefaultMaxEntries)
		}
	})
	t.Run("unbounded", func(t *testing.T) {
		d := &Cache{Resolver: &countingResolver{}, MaxEntries: -1}
		for i := range DefaultMaxEntries + 10 {
			d.lookup(ctx, fmt.Sprintf("n%d.test", i))
		}
		if n := len(cachedNames(d)); n != DefaultMaxEntries+10 {
			t.Fatalf("%d names cached, want all %d", n, DefaultMaxEntries+10)
		}
	})
}
