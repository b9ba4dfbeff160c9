// Package freeport finds loopback TCP ports for tests that start another
// program (nginx, HAProxy, Squid, brisk serve) on a port it must be told.
//
// The ports come from below the kernel's ephemeral range, so that no
// listener bound to port 0 and no outgoing connection of a test running
// at the same time is given the port between the check and the program
// binding it: otherwise a test could dial the wrong server.
package freeport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Addr returns "127.0.0.1:PORT" with a port that was free a moment ago.
func Addr(t testing.TB) string {
	t.Helper()
	lo, hi := portRange()
	for range 200 {
		addr := fmt.Sprintf("127.0.0.1:%d", lo+rand.IntN(hi-lo))
		if ln, err := net.Listen("tcp", addr); err == nil {
			ln.Close()
			return addr
		}
	}
	t.Fatalf("no free port in [%d, %d) after 200 tries", lo, hi)
	return ""
}

// Port is Addr's port.
func Port(t testing.TB) int {
	t.Helper()
	_, p, _ := net.SplitHostPort(Addr(t))
	n, _ := strconv.Atoi(p)
	return n
}

// portRange is the half-open range ports are drawn from: the 12,000 ports
// below the ephemeral range (Linux: ip_local_port_range, 32768 by
// default), never below 1024.
func portRange() (lo, hi int) {
	hi = 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > 2048 {
				hi = n
			}
		}
	}
	return max(hi-12000, 1024), hi
}
