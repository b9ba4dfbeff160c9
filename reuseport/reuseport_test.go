//go:build linux

package reuseport

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestTwoServers: two servers (as two processes would) on one
// port both receive connections; when one shuts down, the other serves
// every further connection, none refused.
func TestTwoServers(t *testing.T) {
	var hits [2]atomic.Int64
	var servers [2]*brisk.Server
	lns, err := Listen("tcp", "127.0.0.1:0", 1)
	if err != nil {
		t.Fatal(err)
	}
	addr := lns[0].Addr().String()
	more, err := Listen("tcp", addr, 1)
	if err != nil {
		t.Fatal(err)
	}
	lns = append(lns, more...)
	done := make(chan error, 2)
	for i := range servers {
		servers[i] = &brisk.Server{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Handler: func(c *brisk.Ctx) {
			hits[i].Add(1)
			c.Response.WriteString("ok")
		}}
		go func() { done <- servers[i].Serve(lns[i]) }()
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
	fetch := func() error {
		resp, err := client.Get("http://" + addr + "/")
		if err != nil {
			return err
		}
		resp.Body.Close()
		return nil
	}
	for range 200 {
		if err := fetch(); err != nil {
			t.Fatal(err)
		}
	}
	if hits[0].Load() == 0 || hits[1].Load() == 0 {
		t.Fatalf("connections per server %d and %d, want both > 0", hits[0].Load(), hits[1].Load())
	}
	if err := servers[0].Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, brisk.ErrServerClosed) {
		t.Fatal(err)
	}
	before := hits[1].Load()
	for i := range 200 {
		if err := fetch(); err != nil {
			t.Fatalf("request %d after one server stopped: %v", i, err)
		}
	}
	if got := hits[1].Load() - before; got != 200 {
		t.Fatalf("remaining server served %d of 200", got)
	}
	servers[1].Shutdown(context.Background())
	<-done
}

func TestListenN(t *testing.T) {
	lns, err := Listen("tcp", "127.0.0.1:0", 3)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	if len(lns) != 3 {
		t.Fatalf("%d listeners, want 3", len(lns))
	}
	for _, ln := range lns[1:] {
		if ln.Addr().String() != lns[0].Addr().String() {
			t.Fatalf("addresses %v and %v differ", ln.Addr(), lns[0].Addr())
		}
	}
}
