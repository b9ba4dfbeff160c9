//go:build !race

package brisk

import (
	"testing"
)

// TestAllocsClientCloseNotAsked: with client-close cancellation on
// (the default), a handler that never asks for the context allocates
// nothing per request over TCP (no context, no goroutine), as with
// IgnoreClientClose.
func TestAllocsClientCloseNotAsked(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: helloHandler})
	nc, err := ts.dial()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	req := fixture(t, "tfb.http")
	buf := make([]byte, 4096)
	want := 0
	exchange := func() {
		if _, err := nc.Write(req); err != nil {
			t.Fatal(err)
		}
		got := 0
		for got == 0 || got < want {
			n, err := nc.Read(buf[got:])
			if err != nil {
				t.Fatal(err)
			}
			got += n
			if want == 0 {
				want = got // the first response arrives in one read
			}
		}
	}
	exchange()
	exchange()
	if n := testing.AllocsPerRun(200, exchange); n != 0 {
		t.Fatalf("%v allocs per request, want 0", n)
	}
}
