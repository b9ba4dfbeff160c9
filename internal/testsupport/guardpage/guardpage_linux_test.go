package guardpage

import "testing"

// TestNew checks that the page is writable end to end and that slices cut
// from it keep to it.
func TestNew(t *testing.T) {
	p := New(t)
	if len(p) != Size || cap(p) != Size {
		t.Fatalf("len %d cap %d, want %d", len(p), cap(p), Size)
	}
	for i := range p {
		p[i] = byte(i)
	}
	if last := len(p) - 1; p[0] != 0 || p[last] != byte(last) {
		t.Fatalf("page not written")
	}
}
