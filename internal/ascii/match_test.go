package ascii

import (
	"math/rand/v2"
	"testing"
)

// TestMatch compares Match with a byte-by-byte reference at every offset
// of slices of every length up to 140, over random bytes drawn mostly from
// the searched one, so that every block position sees matches.
func TestMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 140; n++ {
		b := make([]byte, n)
		for k := range b {
			b[k] = "&&a\x00"[rng.IntN(4)]
		}
		for i := 0; i <= n; i++ {
			for _, c := range []byte{'&', 0} {
				var want uint64
				for k := i; k < n && k < i+64; k++ {
					if b[k] == c {
						want |= 1 << (k - i)
					}
				}
				if got := Match(b, i, c); got != want {
					t.Fatalf("Match(len %d, %d, %q) = %x, want %x", n, i, c, got, want)
				}
			}
		}
	}
}

// TestMatch64Generic checks the assembly (when built) against the Go form
// for every byte value, with random blocks.
func TestMatch64Generic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for c := range 256 {
		var p [64]byte
		for k := range p {
			p[k] = byte(c) ^ byte(rng.IntN(2))<<uint(rng.IntN(8))
		}
		if got, want := match64(&p, byte(c)), match64Generic(&p, byte(c)); got != want {
			t.Fatalf("match64(%x, %#x) = %x, want %x", p, c, got, want)
		}
	}
}
