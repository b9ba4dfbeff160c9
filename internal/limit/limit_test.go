package limit

import (
	"testing"
	"time"
)

func TestRules(t *testing.T) {
	if got := Count(0, 7); got != 7 {
		t.Errorf("Count(0, 7) = %d", got)
	}
	if got := Count(-1, 7); got != 7 {
		t.Errorf("Count(-1, 7) = %d", got)
	}
	if got := Count(3, 7); got != 3 {
		t.Errorf("Count(3, 7) = %d", got)
	}
	for _, c := range []struct{ v, want int64 }{{0, 9}, {-5, -1}, {4, 4}} {
		if got := Bytes(c.v, 9); got != c.want {
			t.Errorf("Bytes(%d, 9) = %d, want %d", c.v, got, c.want)
		}
	}
	for _, c := range []struct{ v, want time.Duration }{{0, time.Second}, {-1, 0}, {time.Minute, time.Minute}} {
		if got := Timeout(c.v, time.Second); got != c.want {
			t.Errorf("Timeout(%v, 1s) = %v, want %v", c.v, got, c.want)
		}
	}
}
