package wire

import (
	"bytes"
	"testing"
)

// decodeAll feeds msg to a BodyDecoder in pieces of at most step bytes, as
// a connection reader would (keeping unconsumed bytes in front of the next
// read), and returns the body data, the bytes left after the body and the
// first error.
func decodeAll(d *BodyDecoder, msg []byte, step int) (body, rest []byte, err error) {
	var buf []byte
	for off := 0; ; {
		if d.Done() {
			return body, append(buf, msg[off:]...), nil
		}
		if off == len(msg) && len(buf) == 0 {
			return body, nil, nil
		}
		end := min(off+step, len(msg))
		buf = append(buf, msg[off:end]...)
		off = end
		n, consumed, err := d.Decode(buf)
		body = append(body, buf[:n]...)
		if err != nil {
			return body, nil, err
		}
		buf = append(buf[:0], buf[consumed:]...)
		if off == len(msg) && consumed == 0 && !d.Done() {
			return body, buf, nil
		}
	}
}

func TestBodyDecoderFramings(t *testing.T) {
	tests := []struct {
		name     string
		framing  Framing
		length   int64
		msg      string
		body     string
		rest     string
		done     bool
		endOK    bool
		maxBytes int64
		kind     Kind
	}{
		{name: "none", framing: FramingNone, msg: "GET / HTTP/1.1\r\n", rest: "GET / HTTP/1.1\r\n", done: true, endOK: true},
		{name: "length", framing: FramingLength, length: 5, msg: "hello" + "NEXT", body: "hello", rest: "NEXT", done: true, endOK: true},
		{name: "length_zero", framing: FramingLength, length: 0, msg: "NEXT", rest: "NEXT", done: true, endOK: true},
		{name: "length_short", framing: FramingLength, length: 9, msg: "hel", body: "hel"},
		{name: "chunked", framing: FramingChunked, msg: "3\r\nabc\r\n2;x=y\r\nde\r\n0\r\nT: v\r\n\r\nNEXT", body: "abcde", rest: "NEXT", done: true, endOK: true},
		{name: "chunked_cut", framing: FramingChunked, msg: "3\r\nabc\r\n2\r\nd", body: "abcd"},
		{name: "close", framing: FramingClose, msg: "all of it", body: "all of it", endOK: true},
		{name: "length_over_limit", framing: FramingLength, length: 11, maxBytes: 10, msg: "hello world", kind: ErrBodyTooLarge},
		{name: "length_at_limit", framing: FramingLength, length: 10, maxBytes: 10, msg: "helloworld", body: "helloworld", done: true, endOK: true},
		{name: "chunked_over_limit", framing: FramingChunked, maxBytes: 4, msg: "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n", kind: ErrBodyTooLarge},
		{name: "close_over_limit", framing: FramingClose, maxBytes: 4, msg: "abcde", kind: ErrBodyTooLarge},
		{name: "chunked_bad_size", framing: FramingChunked, msg: "g\r\n", kind: ErrChunkSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for step := 1; step <= len(tt.msg)+1; step++ {
				d := BodyDecoder{MaxBytes: tt.maxBytes}
				d.Reset(tt.framing, tt.length)
				body, rest, err := decodeAll(&d, []byte(tt.msg), step)
				if tt.kind != 0 {
					if KindOf(err) != tt.kind {
						t.Fatalf("step %d: error %v, want kind %v", step, err, tt.kind)
					}
					continue
				}
				if err != nil {
					t.Fatalf("step %d: %v", step, err)
				}
				if string(body) != tt.body || (tt.done && string(rest) != tt.rest) {
					t.Fatalf("step %d: body %q rest %q, want %q %q", step, body, rest, tt.body, tt.rest)
				}
				if d.Done() != tt.done || d.EndOK() != tt.endOK {
					t.Fatalf("step %d: Done %v EndOK %v, want %v %v", step, d.Done(), d.EndOK(), tt.done, tt.endOK)
				}
				if d.Total() != int64(len(tt.body)) {
					t.Fatalf("step %d: Total %d, want %d", step, d.Total(), len(tt.body))
				}
			}
		})
	}
}

func TestBodyDecoderDirect(t *testing.T) {
	var d BodyDecoder
	d.Reset(FramingLength, 10)
	if got := d.Direct(4); got != 4 {
		t.Fatalf("Direct(4) = %d, want 4", got)
	}
	if got := d.Direct(64); got != 10 {
		t.Fatalf("Direct(64) = %d, want 10", got)
	}
	d.Decode(make([]byte, 7))
	if got, rem := d.Direct(64), d.Remaining(); got != 3 || rem != 3 {
		t.Fatalf("after 7 bytes: Direct %d Remaining %d, want 3 3", got, rem)
	}
	d.Reset(FramingChunked, -1)
	if got, rem := d.Direct(64), d.Remaining(); got != 0 || rem != -1 {
		t.Fatalf("chunked: Direct %d Remaining %d, want 0 -1", got, rem)
	}
	d.Reset(FramingClose, -1)
	if got := d.Direct(64); got != 64 {
		t.Fatalf("close: Direct %d, want 64", got)
	}
}

func TestBodyDecoderTrailers(t *testing.T) {
	d := BodyDecoder{Chunked: ChunkedDecoder{Trailers: make([]Field, 0, 4)}}
	d.Reset(FramingChunked, -1)
	msg := []byte("1\r\na\r\n0\r\nX-Sum: 1\r\n\r\n")
	n, consumed, err := d.Decode(msg)
	if err != nil || n != 1 || consumed != len(msg) || !d.Done() {
		t.Fatalf("Decode = %d, %d, %v; Done %v", n, consumed, err, d.Done())
	}
	if tr := d.Chunked.Trailers; len(tr) != 1 || string(tr[0].Name) != "X-Sum" || string(tr[0].Value) != "1" {
		t.Fatalf("trailers %q", tr)
	}
	d.Reset(FramingChunked, -1)
	if len(d.Chunked.Trailers) != 0 || cap(d.Chunked.Trailers) != 4 {
		t.Fatalf("Reset kept trailers %d/%d, want 0/4", len(d.Chunked.Trailers), cap(d.Chunked.Trailers))
	}
	if !bytes.Equal(msg[:1], []byte("a")) {
		t.Fatalf("data not moved to the front: %q", msg)
	}
}
