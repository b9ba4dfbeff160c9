package ascii

import (
	"testing"

	"github.com/brisk-http/brisk/internal/testsupport/guardpage"
)

// TestMatchPageEdges puts short slices against inaccessible pages on both
// sides and runs Match, MatchArgs and PlainPath on them at every offset: a
// load that strayed outside the slice's page would fault.
func TestMatchPageEdges(t *testing.T) {
	const page = guardpage.Size
	mid := guardpage.New(t)
	for k := range mid {
		mid[k] = "&a=/.%"[k%6]
		if k < 64 || k >= page-64 {
			mid[k] = "a/b"[k%3] // plain, so that PlainPath reads it all
		}
	}
	for n := 1; n < 16; n++ {
		for _, start := range []int{0, 1, page - 16 - n, page - 16, page - n} {
			if start < 0 || start+n > page {
				continue
			}
			b := mid[start : start+n : start+n]
			for i := range n {
				if got, want := Match(b, i, '&'), matchGeneric(b, i, '&'); got != want {
					t.Fatalf("Match(mid[%d:%d], %d) = %x, want %x", start, start+n, i, got, want)
				}
				if got, want := PlainPath(b[i:]), plainPathGeneric(b[i:]); got != want {
					t.Fatalf("PlainPath(mid[%d:%d]) = %v", start+i, start+n, got)
				}
				if a, e, x := MatchArgs(b, i); [3]uint64{a, e, x} != argsBits(b, i) {
					t.Fatalf("MatchArgs(mid[%d:%d], %d) = %x %x %x", start, start+n, i, a, e, x)
				}
			}
		}
	}
}

func argsBits(b []byte, i int) [3]uint64 {
	a, e, x := matchArgsGeneric(b, i)
	return [3]uint64{a, e, x}
}
