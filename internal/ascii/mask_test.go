package ascii

import "testing"

// TestMasks checks each mask against its RFC definition.
func TestMasks(t *testing.T) {
	classes := []struct {
		name   string
		lo, hi uint64
		def    func(c byte) bool
	}{
		{"cookie-octet", CookieOctetLo, CookieOctetHi, func(c byte) bool {
			return c == 0x21 || c >= 0x23 && c <= 0x2B || c >= 0x2D && c <= 0x3A || c >= 0x3C && c <= 0x5B || c >= 0x5D && c <= 0x7E
		}},
		{"av-octet", AVOctetLo, AVOctetHi, func(c byte) bool { return c >= 0x20 && c < 0x7f && c != ';' }},
	}
	for _, cl := range classes {
		for c := 0; c < 256; c++ {
			if got, want := InMask(byte(c), cl.lo, cl.hi), cl.def(byte(c)); got != want {
				t.Errorf("%s: byte %#x in class = %v, want %v", cl.name, c, got, want)
			}
		}
	}
}

// unhex, the reference for HexValue, returns the value of the
// hexadecimal digit c, or -1.
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

func TestHexValue(t *testing.T) {
	if len(HexValue) != 256 {
		t.Fatalf("len %d", len(HexValue))
	}
	for c := range 256 {
		want := byte(0xff)
		if v := unhex(byte(c)); v >= 0 {
			want = byte(v)
		}
		if HexValue[c] != want {
			t.Errorf("byte %#x: HexValue %#x, want %#x", c, HexValue[c], want)
		}
	}
}
