//go:build !race

package wire

import "testing"

// TestChunkedDecodeAllocs checks that decoding a body with extensions and
// trailers, whole and in pieces, allocates nothing.
func TestChunkedDecodeAllocs(t *testing.T) {
	in := []byte("5;a=\"b\"\r\nhello\r\n6\r\n world\r\n0\r\nX-A: 1\r\nX-B: 2\r\n\r\n")
	buf := make([]byte, len(in))
	storage := make([]Field, 4)
	d := ChunkedDecoder{Trailers: storage[:0]}
	allocs := testing.AllocsPerRun(100, func() {
		d.Reset()
		copy(buf, in)
		_, c, err := d.Decode(buf[:20])
		if err != nil {
			t.Fatal(err)
		}
		m := copy(buf, buf[c:20])
		m += copy(buf[m:], in[20:])
		if _, _, err = d.Decode(buf[:m]); err != nil || !d.Done() || len(d.Trailers) != 2 {
			t.Fatalf("err %v done %v", err, d.Done())
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocs per decode, want 0", allocs)
	}
}

// TestAppendAllocs checks that the encoders allocate nothing when dst has
// room.
func TestAppendAllocs(t *testing.T) {
	dst := make([]byte, 0, 512)
	name, value := []byte("X-Name"), "value"
	trailers := []Field{{Name: []byte("X-T"), Value: []byte("1")}}
	allocs := testing.AllocsPerRun(100, func() {
		b := AppendStatusLine(dst[:0], 200, "")
		b = AppendStatusLine(b, 404, []byte("Nope"))
		b = AppendRequestLine(b, "GET", []byte("/a?b"))
		b = AppendField(b, name, value)
		b = AppendContentLength(b, 12345)
		b = AppendChunkSize(b, 0x1f)
		b = AppendLastChunk(b, trailers)
		if !ValidFieldName(name) || !ValidFieldValue(value) {
			t.Fatal("invalid")
		}
		_ = b
	})
	if allocs != 0 {
		t.Fatalf("%v allocs, want 0", allocs)
	}
}
