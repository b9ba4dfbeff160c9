package ascii

import (
	"math/rand/v2"
	"testing"
)

// TestMatch compares Match with a byte-by-byte reference at every offset
// of slices of every length up to 140, over random bytes drawn mostly
// from the searched ones, so that every block position and every region
// (the 64 bytes from i, the last 64, all of b, a short b) sees matches.
func TestMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 140; n++ {
		b := make([]byte, n)
		for k := range b {
			b[k] = "&=\x00+a"[rng.IntN(5)]
		}
		for i := 0; i <= n+1; i++ {
			for _, c := range []byte{'&', '=', 0, '+'} {
				if got, want := Match(b, i, c), matchGeneric(b, i, c); got != want {
					t.Fatalf("Match(len %d, %d, %q) = %x, want %x", n, i, c, got, want)
				}
			}
		}
	}
}

// TestMatchArgs compares MatchArgs with its Go form at every offset of
// slices of every length up to 140, over bytes drawn mostly from the ones
// it marks, and over every byte value.
func TestMatchArgs(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	check := func(b []byte, i int) {
		t.Helper()
		a, e, x := MatchArgs(b, i)
		wa, we, wx := matchArgsGeneric(b, i)
		if i >= len(b) {
			wa, we, wx = 0, 0, 0
		}
		if a != wa || e != we || x != wx {
			t.Fatalf("MatchArgs(%q, %d) = %x %x %x, want %x %x %x", b, i, a, e, x, wa, we, wx)
		}
	}
	for n := 0; n <= 140; n++ {
		b := make([]byte, n)
		for k := range b {
			if rng.IntN(4) == 0 {
				b[k] = byte(rng.UintN(256))
			} else {
				b[k] = "&=%+a\x00\xa6"[rng.IntN(7)]
			}
		}
		for i := 0; i <= n+1; i++ {
			check(b, i)
		}
	}
	var all [256]byte
	for c := range all {
		all[c] = byte(c)
	}
	for i := 0; i < 256; i += 16 {
		check(all[:], i)
	}
}

// TestMatchByteValues checks every byte value, with bytes that differ
// from it in one bit around it.
func TestMatchByteValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for c := range 256 {
		b := make([]byte, 100)
		for k := range b {
			b[k] = byte(c) ^ byte(rng.IntN(2))<<uint(rng.IntN(8))
		}
		for _, i := range []int{0, 1, 36, 50, 90} {
			if got, want := Match(b, i, byte(c)), matchGeneric(b, i, byte(c)); got != want {
				t.Fatalf("Match(%x, %d, %#x) = %x, want %x", b, i, c, got, want)
			}
		}
	}
}

// TestPlainPath compares PlainPath with its Go form on slices of every
// length up to 140, over bytes drawn mostly from the ones it looks at,
// and checks the answer for each bad byte or pair at every position and
// each byte value at the end, so that each sixteen, the last sixteen and
// a short slice see them.
func TestPlainPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const plain = "/a/b.c/d-e/"
	for n := 0; n <= 140; n++ {
		b := make([]byte, n)
		for range 40 {
			for k := range b {
				if rng.IntN(8) == 0 {
					b[k] = "/.%\\\x00\x1f\x20\x7f\x80\xff"[rng.IntN(10)]
				} else {
					b[k] = plain[rng.IntN(len(plain))]
				}
			}
			checkPlainPath(t, b)
		}
		for k := range b { // plain but for one byte or pair at k
			for _, c := range []struct {
				s     string
				plain bool
			}{
				{"%", false}, {"\\", false}, {"\x00", false}, {"\x1f", false}, {"\x7f", false},
				{"//", k == n-1}, {"/.", k == n-1}, // at the end, only the "/" fits
				{"\x20", true}, {"\x80", true}, {"./", true}, {"a.", true},
			} {
				for j := range b {
					b[j] = "ab-"[j%3]
				}
				copy(b[k:], c.s)
				checkPlainPath(t, b)
				if got := PlainPath(b); got != c.plain {
					t.Fatalf("PlainPath(%q) = %v, want %v", b, got, c.plain)
				}
			}
		}
	}
	for c := range 256 {
		for _, n := range []int{1, 16, 40} {
			b := make([]byte, n)
			for j := range b {
				b[j] = 'a'
			}
			b[n-1] = byte(c)
			checkPlainPath(t, b)
			want := c != '%' && c != '\\' && c >= 0x20 && c != 0x7f
			if got := PlainPath(b); got != want {
				t.Fatalf("PlainPath(%q) = %v, want %v", b, got, want)
			}
		}
	}
}

// checkPlainPath compares PlainPath with its Go form plainPathGeneric on
// b.
func checkPlainPath(t *testing.T, b []byte) {
	t.Helper()
	if got, want := PlainPath(b), plainPathGeneric(b); got != want {
		t.Fatalf("PlainPath(%q) = %v, plainPathGeneric %v", b, got, want)
	}
}
