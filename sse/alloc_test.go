//go:build !race

package sse_test

import (
	"io"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/sse"
)

// TestAllocs: Send and Comment allocate nothing once the stream's buffer
// has grown.
func TestAllocs(t *testing.T) {
	allocs := make(chan float64, 1)
	resp := get(t, &brisk.Server{Handler: func(c *brisk.Ctx) {
		s, _ := sse.New(c, nil)
		e := sse.Event{ID: "12", Event: "tick", Data: "a\nb"}
		allocs <- testing.AllocsPerRun(100, func() {
			s.Send(e)
			s.Comment("")
		})
	}}, nil)
	go io.Copy(io.Discard, resp.Body)
	if n := <-allocs; n != 0 {
		t.Errorf("%v allocations per Send and Comment, want 0", n)
	}
}
