package brisk

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

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

// TestDNSCache: concurrent dials of one name share one look-up; later
// dials within the TTL use it; after the TTL the name is looked up again;
// a failed look-up is not kept.
func TestDNSCache(t *testing.T) {
	url := startStreamServer(t, &Server{Handler: helloHandler})
	_, port, _ := net.SplitHostPort(url[len("http://"):])
	r := &countingResolver{delay: 50 * time.Millisecond}
	d := &DNSCache{Resolver: r, TTL: 300 * time.Millisecond}
	c := Client{ClientConfig: ClientConfig{Dial: d.DialContext, MaxConnsPerHost: -1}}
	get := func() error {
		var req Request
		var resp Response
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
