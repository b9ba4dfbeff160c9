//go:build !race

package wire

import "testing"

func TestBodyAndOutgoingAllocs(t *testing.T) {
	fs := fields("Content-Type", "text/plain", "Connection", "close", "Content-Length", "5", "X-Long-Name", "v")
	dst := make([]byte, 0, 512)
	src := []byte("5\r\nhello\r\n0\r\n\r\n")
	msg := make([]byte, len(src))
	var d BodyDecoder
	allocs := testing.AllocsPerRun(100, func() {
		o := ScanOutgoing(fs)
		if o.ContentLength != 5 || !o.Close {
			t.Fatal("unexpected scan")
		}
		_ = AppendFields(dst[:0], fs, Classes(FieldConnection, FieldContentLength))
		copy(msg, src)
		d.Reset(FramingChunked, -1)
		if _, _, err := d.Decode(msg); err != nil || !d.Done() {
			t.Fatal("decode failed")
		}
	})
	if allocs != 0 {
		t.Fatalf("allocs/op = %v, want 0", allocs)
	}
}
