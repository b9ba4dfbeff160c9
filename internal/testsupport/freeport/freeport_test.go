package freeport

import (
	"net"
	"testing"
)

func TestAddrIsFreeAndBelowEphemeral(t *testing.T) {
	lo, hi := portRange()
	for range 20 {
		p := Port(t)
		if p < lo || p >= hi {
			t.Fatalf("port %d outside [%d, %d)", p, lo, hi)
		}
	}
	ln, err := net.Listen("tcp", Addr(t))
	if err != nil {
		t.Fatalf("the port given is not free: %v", err)
	}
	ln.Close()
}
