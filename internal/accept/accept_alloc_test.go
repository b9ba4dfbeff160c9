//go:build !race

package accept

import "testing"

// TestNegotiateAllocs: negotiating allocates nothing.
func TestNegotiateAllocs(t *testing.T) {
	vs := [][]byte{[]byte("gzip;q=0.5, br;q=0.8, identity;q=0.6, *;q=0.1")}
	offers := []string{"zstd", "br", "gzip"}
	if n := testing.AllocsPerRun(100, func() {
		if Negotiate(vs, offers) != 1 {
			t.Fatal("not br")
		}
	}); n != 0 {
		t.Errorf("%v allocs per Negotiate, want 0", n)
	}
}
