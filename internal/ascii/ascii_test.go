package ascii

import (
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
			targetStop := c <= 0x20 || c >= 0x7f || c == '#' || c == '%'
			if got := FieldValueStop(x); (got != 0) != valueStop || got != 0 && got&-got != 0x80<<(8*pos) {
				t.Errorf("FieldValueStop byte %#x at %d: %#x", c, pos, got)
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
