package brisk

import "testing"

// TestCharClasses checks each mask against its RFC definition.
func TestCharClasses(t *testing.T) {
	classes := []struct {
		name   string
		lo, hi uint64
		def    func(c byte) bool
	}{
		{"cookie-octet", cookieOctetLo, cookieOctetHi, func(c byte) bool {
			return c == 0x21 || c >= 0x23 && c <= 0x2B || c >= 0x2D && c <= 0x3A || c >= 0x3C && c <= 0x5B || c >= 0x5D && c <= 0x7E
		}},
		{"av-octet", avOctetLo, avOctetHi, func(c byte) bool { return c >= 0x20 && c < 0x7f && c != ';' }},
	}
	for _, cl := range classes {
		for c := 0; c < 256; c++ {
			if got, want := inClass(byte(c), cl.lo, cl.hi), cl.def(byte(c)); got != want {
				t.Errorf("%s: byte %#x in class = %v, want %v", cl.name, c, got, want)
			}
		}
	}
}

func TestPathSpecialTable(t *testing.T) {
	if len(pathSpecialTable) != 256 {
		t.Fatalf("len %d", len(pathSpecialTable))
	}
	for c := range 256 {
		want := c < 0x20 || c == 0x7f || c == '%' || c == '/' || c == '\\'
		if got := pathSpecialTable[c] != 0; got != want {
			t.Errorf("byte %#x: table %v, want %v", c, got, want)
		}
	}
}

// unhex, the reference for hexValue, returns the value of the
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
	if len(hexValue) != 256 {
		t.Fatalf("len %d", len(hexValue))
	}
	for c := range 256 {
		want := byte(0xff)
		if v := unhex(byte(c)); v >= 0 {
			want = byte(v)
		}
		if hexValue[c] != want {
			t.Errorf("byte %#x: hexValue %#x, want %#x", c, hexValue[c], want)
		}
	}
}
