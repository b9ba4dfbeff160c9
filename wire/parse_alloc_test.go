//go:build !race

package wire

import "testing"

// TestParseAllocs checks the allocation budget: none on success, none on
// ErrNeedMore, for every fixture and a response head.
func TestParseAllocs(t *testing.T) {
	for _, name := range fixtureNames {
		buf := readFixture(t, name)
		var p Parser
		var h RequestHead
		storage := make([]Field, 32)
		if n := testing.AllocsPerRun(100, func() {
			h.Reset(storage)
			if _, err := p.ParseRequest(buf, &h); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocs per parse, want 0", name, n)
		}
		if n := testing.AllocsPerRun(20, func() {
			h.Reset(storage)
			for k := 1; k <= len(buf); k++ {
				if _, err := p.ParseRequest(buf[:k], &h); err != ErrNeedMore {
					break
				}
			}
		}); n != 0 {
			t.Errorf("%s byte by byte: %v allocs per parse, want 0", name, n)
		}
	}
	resp := []byte("HTTP/1.1 404 Not Found\r\nContent-Length: 5\r\nConnection: close\r\n\r\n")
	var p Parser
	var h ResponseHead
	storage := make([]Field, 8)
	if n := testing.AllocsPerRun(100, func() {
		h.Reset(storage)
		if _, err := p.ParseResponse(resp, &h); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("response: %v allocs per parse, want 0", n)
	}
}
