package wire

import (
	"errors"
	"testing"
)

// FuzzChunkedDecode checks that decoding never panics, that n <= consumed
// (feedChunked checks each call), and that the outcome (body, trailers,
// bytes used, error kind and offset) is the same whether the input arrives
// whole, split at two points, or byte by byte. limits picks small limits so
// that they are reached.
func FuzzChunkedDecode(f *testing.F) {
	for _, tc := range validChunked {
		f.Add([]byte(tc.in+nextMessage), uint16(1), uint16(7), uint8(0))
	}
	for _, tc := range invalidChunked {
		if len(tc.in) < 1000 {
			f.Add([]byte(tc.in), uint16(2), uint16(9), uint8(1))
		}
	}
	f.Add([]byte("1;aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\nx\r\n1;b\r\ny\r\n0\r\nT: v\r\n\r\n"), uint16(3), uint16(30), uint8(0xff))
	f.Fuzz(func(t *testing.T, in []byte, cut1, cut2 uint16, limits uint8) {
		newDecoder := func() *ChunkedDecoder {
			d := &ChunkedDecoder{Trailers: make([]Field, 0, 4)}
			if limits&1 != 0 {
				d.MaxExtensionBytes = 8
			}
			if limits&2 != 0 {
				d.MaxOverheadBytes = 32
			}
			if limits&4 != 0 {
				d.MaxTrailerBytes = 24
			}
			if limits&8 != 0 {
				d.Trailers = nil
			}
			return d
		}
		whole := feedChunked(t, newDecoder(), in, nil)
		a, b := int(cut1)%(len(in)+1), int(cut2)%(len(in)+1)
		if a > b {
			a, b = b, a
		}
		split := feedChunked(t, newDecoder(), in, []int{a, b})
		sameChunkResult(t, "split", whole, split)
		if len(in) <= 512 {
			var cuts []int
			for i := 1; i < len(in); i++ {
				cuts = append(cuts, i)
			}
			sameChunkResult(t, "bytewise", whole, feedChunked(t, newDecoder(), in, cuts))
		}
	})
}

// sameChunkResult fails t unless got equals want, comparing errors by
// kind and offset.
func sameChunkResult(t *testing.T, how string, want, got chunkResult) {
	t.Helper()
	var we, ge *Error
	errors.As(want.err, &we)
	errors.As(got.err, &ge)
	if (we == nil) != (ge == nil) || (we != nil && *we != *ge) {
		t.Fatalf("%s: err %v, whole %v", how, got.err, want.err)
	}
	if want.err == nil && got.err == nil && want != got {
		t.Fatalf("%s: %+v, whole %+v", how, got, want)
	}
	if want.err != nil && (want.body != got.body) {
		t.Fatalf("%s: body before error %q, whole %q", how, got.body, want.body)
	}
}
