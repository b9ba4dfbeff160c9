package wire

import (
	"strings"
	"testing"

	"github.com/brisk-http/brisk/internal/testsupport/guardpage"
)

// TestScannersPageEdges puts field sections and request lines against
// inaccessible pages on both sides: a load of the assembly scanners
// (fieldLines in each form, valueEnd, targetStop) that strayed
// outside its slice would fault. Each result is compared with the Go form.
func TestScannersPageEdges(t *testing.T) {
	const page = guardpage.Size
	mid := guardpage.New(t)
	section := "Host: example.com\r\nAccept:\t*/*\r\nX-Long: " + strings.Repeat("v", 240) +
		"\r\nConnection:  close\r\nUser-Agent: " + strings.Repeat("u", 70) + "\r\nA: b\r\n\r\n"
	line := "GET /cookies/catalog/item.php?id=81273 HTTP/1.1\r\nHost: a\r\n"
	impls := fieldLinesImpls()
	for _, in := range []string{section, line} {
		for n := 1; n <= len(in); n++ {
			for _, at := range []int{0, page - n} {
				b := mid[at : at+n : at+n]
				copy(b, in[len(in)-n:])
				var want lineSpans
				wk := fieldLinesRef(b, &want)
				for name, fieldLines := range impls {
					var got lineSpans
					if k := fieldLines(b, &got); k != wk || got != want {
						t.Fatalf("%s(%q) at %d = %d %v, want %d %v", name, b, at, k, got[:k], wk, want[:wk])
					}
				}
				for i := range min(n, 20) {
					if got, want := valueEnd(b, i), valueEndGeneric(b, i); got != want {
						t.Fatalf("valueEnd(%q, %d) at %d = %d, want %d", b, i, at, got, want)
					}
					if got, want := targetStop(b, i), targetStopGeneric(b, i); got != want {
						t.Fatalf("targetStop(%q, %d) at %d = %d, want %d", b, i, at, got, want)
					}
				}
			}
		}
	}
}
