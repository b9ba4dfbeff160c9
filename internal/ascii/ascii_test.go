package ascii

import (
	"math/bits"
	"strings"
	"testing"
)

func TestEqualFoldLower(t *testing.T) {
	for _, c := range []struct {
		s, lower string
		want     bool
	}{
		{"Host", "host", true},
		{"HOST", "host", true},
		{"Hosts", "host", false},
		{"Content-Length", "content-length", true},
		{"content-lengtH", "content-length", true},
		{"Content-Lengti", "content-length", false},
		{"Dontent-Length", "content-length", false},
		{"Transfer-Encoding", "transfer-encoding", true},
		{"Transfer-Encodinf", "transfer-encoding", false},
		{"Transfer_Encoding", "transfer-encoding", false},
		{"100-CONTINUE", "100-continue", true},
		{"KEEP-ALIVE", "keep-alive", true},
	} {
		if got := EqualFoldLower([]byte(c.s), c.lower); got != c.want {
			t.Errorf("EqualFoldLower(%q, %q) = %v", c.s, c.lower, got)
		}
	}
}

func TestEqualFold(t *testing.T) {
	if !EqualFold([]byte("HTTP://"), "http://") || EqualFold([]byte("HTTP:/ "), "http://") || EqualFold([]byte("["), "{") {
		t.Error("EqualFold")
	}
}

// TestStops compares the SWAR stop words with a byte-at-a-time definition
// for every byte value in every position.
func TestStops(t *testing.T) {
	for pos := 0; pos < 8; pos++ {
		for c := 0; c < 256; c++ {
			w := []byte(strings.Repeat("a", 8))
			w[pos] = byte(c)
			x := load64(w)
			valueStop := c < 0x20 || c == 0x7f
			marked := valueStop || c == '\t' || c >= 0x80 && c <= 0x9f || c == 0xff
			targetStop := c <= 0x20 || c >= 0x7f || c == '#' || c == '%'
			if got := ValueStop(x); (got != 0) != marked || got != 0 && got&-got != 0x80<<(8*pos) {
				t.Errorf("ValueStop byte %#x at %d: %#x", c, pos, got)
			}
			invalid := valueStop && c != '\t'
			if invalid == (Class[c]&FieldVChar != 0) {
				t.Errorf("FieldVChar %#x", c)
			}
			if qd := c != '"' && c != '\\' && !invalid; qd != (Class[c]&QDText != 0) {
				t.Errorf("QDText %#x", c)
			}
			if got := TargetStop(x); (got != 0) != targetStop || got != 0 && got&-got != 0x80<<(8*pos) {
				t.Errorf("TargetStop byte %#x at %d: %#x", c, pos, got)
			}
		}
	}
}

func TestClasses(t *testing.T) {
	for c := 0; c < 256; c++ {
		tok := c > 0x20 && c < 0x7f && !strings.ContainsRune(`"(),/:;<=>?@[\]{}`, rune(c))
		if IsToken(byte(c)) != tok {
			t.Errorf("IsToken(%#x) = %v", c, !tok)
		}
	}
}

// TestValueStopPairs checks ValueStop on every pair of adjacent byte values,
// which covers the carries and borrows between bytes: the lowest marked
// byte is never after the first invalid one, and the bytes before it are
// valid.
func TestValueStopPairs(t *testing.T) {
	w := []byte(strings.Repeat("a", 8))
	for c0 := 0; c0 < 256; c0++ {
		for c1 := 0; c1 < 256; c1++ {
			w[3], w[4] = byte(c0), byte(c1)
			m := ValueStop(load64(w))
			first := 8
			for i, c := range w {
				if Class[c]&FieldVChar == 0 {
					first = i
					break
				}
			}
			if first < 8 && m == 0 || m != 0 && bits.TrailingZeros64(m)>>3 > first {
				t.Fatalf("ValueStop(% x) = %#x, first invalid byte %d", w, m, first)
			}
		}
	}
}

func TestRun(t *testing.T) {
	for _, c := range []struct {
		s     string
		class uint8
		want  int
	}{
		{"", Token, 0},
		{"Host", Token, 4},
		{"Host:", Token, 4},
		{"Content-Length: 5", Token, 14},
		{"abc def", Token, 3},
		{":", Token, 0},
		{"example.com:80", Host, 11},
		{"a%20b", Host, 1},
		{"0123456789a", Digit, 10},
		{"0aF9g", Hex, 4},
		{"09", Digit | Hex, 2},
		{"0a", Digit | Hex, 1},
	} {
		if got := Run([]byte(c.s), c.class); got != c.want {
			t.Errorf("Run(%q, %#x) = %d, want %d", c.s, c.class, got, c.want)
		}
	}
}
