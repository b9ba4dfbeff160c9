package wire

import (
	"math/rand/v2"
	"testing"
)

// valueEndRef is valueEnd one byte at a time.
func valueEndRef(b []byte, i int) int {
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return i
		}
	}
	return len(b)
}

// TestValueEnd checks valueEnd and valueEndGeneric against the
// byte-at-a-time reference: every length up to 70 and start offset, a
// single byte of every value at every position of a run of field-value
// bytes, and random inputs.
func TestValueEnd(t *testing.T) {
	check := func(b []byte, i int) {
		t.Helper()
		want := valueEndRef(b, i)
		if got := valueEnd(b, i); got != want {
			t.Fatalf("valueEnd(%q, %d) = %d, want %d", b, i, got, want)
		}
		if got := valueEndGeneric(b, i); got != want {
			t.Fatalf("valueEndGeneric(%q, %d) = %d, want %d", b, i, got, want)
		}
	}
	for n := 0; n <= 70; n++ {
		base := make([]byte, n)
		for i := range base {
			base[i] = "a~ \x80\xff!\t9Z"[i%9]
		}
		for i := 0; i <= n; i++ {
			check(base, i)
		}
		for j := 0; j < n; j++ {
			for v := 0; v < 256; v++ {
				b := append([]byte(nil), base...)
				b[j] = byte(v)
				check(b, 0)
				check(b, j/2)
				check(b, j)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(100))
		for i := range b {
			b[i] = byte(0x20 + r.IntN(0xe0))
			if r.IntN(32) == 0 {
				b[i] = byte(r.IntN(256))
			}
		}
		check(b, r.IntN(len(b)+1))
	}
}

// targetStopRef is targetStop one byte at a time.
func targetStopRef(b []byte, i int) int {
	for ; i < len(b); i++ {
		if c := b[i]; c <= ' ' || c >= 0x7f || c == '#' || c == '%' {
			return i
		}
	}
	return len(b)
}

// TestTargetStop checks targetStop and targetStopGeneric as TestValueEnd
// checks valueEnd.
func TestTargetStop(t *testing.T) {
	check := func(b []byte, i int) {
		t.Helper()
		want := targetStopRef(b, i)
		if got := targetStop(b, i); got != want {
			t.Fatalf("targetStop(%q, %d) = %d, want %d", b, i, got, want)
		}
		if got := targetStopGeneric(b, i); got != want {
			t.Fatalf("targetStopGeneric(%q, %d) = %d, want %d", b, i, got, want)
		}
	}
	for n := 0; n <= 70; n++ {
		base := make([]byte, n)
		for i := range base {
			base[i] = "a~/!9Z?=&"[i%9]
		}
		for i := 0; i <= n; i++ {
			check(base, i)
		}
		for j := 0; j < n; j++ {
			for v := 0; v < 256; v++ {
				b := append([]byte(nil), base...)
				b[j] = byte(v)
				check(b, 0)
				check(b, j/2)
				check(b, j)
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		b := make([]byte, r.IntN(100))
		for i := range b {
			b[i] = byte(0x21 + r.IntN(0x5e))
			if r.IntN(32) == 0 {
				b[i] = byte(r.IntN(256))
			}
		}
		check(b, r.IntN(len(b)+1))
	}
}
