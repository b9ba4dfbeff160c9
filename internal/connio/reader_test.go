package connio

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestFillCompactsDownToKeep(t *testing.T) {
	var r Reader
	r.Reset(strings.NewReader("abcdefghij"), make([]byte, 4))
	if err := r.Fill(0, 4); err != nil || string(r.Buffered()) != "abcd" {
		t.Fatalf("Fill = %v, buffered %q", err, r.Buffered())
	}
	r.Consume(3) // "abc" consumed, "d" unread; keep the first byte ("a")
	if err := r.Fill(1, 4); err != nil {
		t.Fatal(err)
	}
	if got := string(r.Storage()); got != "adef" {
		t.Fatalf("storage %q, want %q (unread moved to offset 1)", got, "adef")
	}
	if r.Offset() != 1 || string(r.Buffered()) != "def" {
		t.Fatalf("offset %d buffered %q", r.Offset(), r.Buffered())
	}
}

func TestFillGrowsToLimit(t *testing.T) {
	var r Reader
	r.Reset(strings.NewReader("0123456789"), make([]byte, 2))
	for r.Len() < 5 {
		if err := r.Fill(0, 5); err != nil {
			t.Fatalf("Fill at %d bytes: %v", r.Len(), err)
		}
	}
	if string(r.Buffered()) != "01234" || len(r.Storage()) != 5 {
		t.Fatalf("buffered %q", r.Buffered())
	}
	if err := r.Fill(0, 5); !errors.Is(err, ErrFull) {
		t.Fatalf("Fill past limit = %v, want ErrFull", err)
	}
}

func TestFillErrors(t *testing.T) {
	var r Reader
	r.Reset(iotest.ErrReader(io.ErrUnexpectedEOF), make([]byte, 4))
	if err := r.Fill(0, 4); err != io.ErrUnexpectedEOF {
		t.Fatalf("Fill = %v", err)
	}
	r.Reset(zeroReader{}, make([]byte, 4))
	if err := r.Fill(0, 4); err != io.ErrNoProgress {
		t.Fatalf("Fill on a 0,nil source = %v, want io.ErrNoProgress", err)
	}
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func TestCompact(t *testing.T) {
	var r Reader
	r.Reset(strings.NewReader("abcdefgh"), make([]byte, 8))
	r.Fill(0, 8)
	r.Consume(7)
	r.Compact() // 0 bytes free after "h": moved to the front
	if r.Offset() != 0 || string(r.Buffered()) != "h" {
		t.Fatalf("offset %d buffered %q", r.Offset(), r.Buffered())
	}
	r.Consume(1)
	r.Compact()
	if r.Offset() != 0 || r.Len() != 0 {
		t.Fatalf("empty: offset %d len %d", r.Offset(), r.Len())
	}
}

func TestReleaseAndDetach(t *testing.T) {
	var r Reader
	r.Reset(strings.NewReader("GET /a\r\nGET /b"), make([]byte, 64))
	r.Fill(0, 64)
	if r.Release() != nil {
		t.Fatal("Release with buffered bytes gave the storage away")
	}
	r.Consume(8)
	p := r.Detach()
	if string(p) != "GET /b" || r.HasStorage() || r.Len() != 0 {
		t.Fatalf("Detach = %q, storage %v", p, r.HasStorage())
	}
	if cap(p) != len(p) {
		t.Fatal("detached bytes can be appended over")
	}
	r.SetStorage(make([]byte, 8))
	if b := r.Release(); len(b) != 8 || r.HasStorage() {
		t.Fatal("Release of an empty reader kept its storage")
	}
}

func TestReadBufferedThenDirect(t *testing.T) {
	var r Reader
	src := strings.NewReader("abcdef")
	r.Reset(src, make([]byte, 2))
	r.Fill(0, 2)
	p := make([]byte, 8)
	n, _ := r.Read(p)
	if string(p[:n]) != "ab" {
		t.Fatalf("first Read %q", p[:n])
	}
	n, _ = r.Read(p)
	if string(p[:n]) != "cdef" || r.Len() != 0 {
		t.Fatalf("direct Read %q", p[:n])
	}
	if !bytes.Equal(r.Storage(), []byte("ab")) {
		t.Fatalf("direct read went through the storage: %q", r.Storage())
	}
}
