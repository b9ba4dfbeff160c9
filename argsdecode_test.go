package brisk

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// refFormDecode is AppendFormDecoded written plainly, one byte at a time:
// the reference the faster code is checked against.
func refFormDecode(src []byte) []byte {
	out := []byte{}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '+':
			c = ' '
		case c == '%' && i+2 < len(src) && unhex(src[i+1]) >= 0 && unhex(src[i+2]) >= 0:
			c = byte(unhex(src[i+1])<<4 | unhex(src[i+2]))
			i += 2
		}
		out = append(out, c)
	}
	return out
}

// unhex, the reference decoder, returns the value of the hexadecimal
// digit c, or -1.
func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

// formAlphabet holds the bytes that matter to form decoding, and
// neighbours of them: every string over it up to some length is tried.
const formAlphabet = "%+a=&F0g*,\x00\xff"

// eachFormString calls f with every string over formAlphabet of length up
// to max.
func eachFormString(max int, f func([]byte)) {
	b := make([]byte, 0, max)
	var rec func()
	rec = func() {
		f(b)
		if len(b) == max {
			return
		}
		for i := 0; i < len(formAlphabet); i++ {
			b = append(b, formAlphabet[i])
			rec()
			b = b[:len(b)-1]
		}
	}
	rec()
}

// TestAppendFormDecodedReference compares AppendFormDecoded and
// formDecodedEqual with refFormDecode on every short string over
// formAlphabet, appended after a prefix and alone.
func TestAppendFormDecodedReference(t *testing.T) {
	eachFormString(5, func(src []byte) {
		want := refFormDecode(src)
		if got := AppendFormDecoded(nil, src); !bytes.Equal(got, want) {
			t.Fatalf("AppendFormDecoded(%q) = %q, want %q", src, got, want)
		}
		dst := append(make([]byte, 0, 3), "xy"...)
		if got := AppendFormDecoded(dst, src); string(got) != "xy"+string(want) {
			t.Fatalf("AppendFormDecoded(xy, %q) = %q, want xy%q", src, got, want)
		}
		if !formDecodedEqual(src, string(want)) {
			t.Fatalf("formDecodedEqual(%q, %q) = false", src, want)
		}
		if formDecodedEqual(src, string(want)+"a") {
			t.Fatalf("formDecodedEqual(%q, %q+a) = true", src, want)
		}
	})
}

// TestAppendFormDecodedLong compares AppendFormDecoded with refFormDecode
// on random strings over formAlphabet (and random bytes) of every length
// up to 80, appended to dst of every spare capacity from none to 20 bytes
// past the decoded length.
func TestAppendFormDecodedLong(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 0; n <= 80; n++ {
		for range 30 {
			src := make([]byte, n)
			for k := range src {
				if rng.IntN(3) == 0 {
					src[k] = byte(rng.UintN(256))
				} else {
					src[k] = formAlphabet[rng.IntN(len(formAlphabet))]
				}
			}
			want := refFormDecode(src)
			for spare := 0; spare <= 20; spare++ {
				dst := append(make([]byte, 0, 2+len(want)+spare), "xy"...)
				got := AppendFormDecoded(dst, src)
				if string(got) != "xy"+string(want) {
					t.Fatalf("AppendFormDecoded(xy, %q) with %d spare = %q, want xy%q", src, spare, got, want)
				}
			}
		}
	}
}
