package wire

import (
	"bytes"
	"testing"
)

// TestRawFieldSection checks FieldSection.Raw for GET and for requests
// with bodies: exactly the field lines, ending right before the final
// CRLF, never a body byte, however the head arrives.
func TestRawFieldSection(t *testing.T) {
	binary := []byte("\r\n\r\n\x00\xff\r\nContent-Length: 99\r\n\r\n")
	for _, c := range []struct {
		name, head, raw string
		body            []byte
	}{
		{"get", "GET /a HTTP/1.1\r\nHost: h\r\nAccept: */*\r\n\r\n", "Host: h\r\nAccept: */*\r\n", nil},
		{"get_no_fields_http10", "GET /a HTTP/1.0\r\n\r\n", "", nil},
		{"post_binary", "POST /up HTTP/1.1\r\nHost: h\r\nContent-Length: 30\r\n\r\n", "Host: h\r\nContent-Length: 30\r\n", binary},
		{"put_binary", "PUT /up HTTP/1.1\r\nHost: h\r\nContent-Type: application/octet-stream\r\nContent-Length: 30\r\n\r\n", "Host: h\r\nContent-Type: application/octet-stream\r\nContent-Length: 30\r\n", binary},
		{"post_http10", "POST /up HTTP/1.0\r\nContent-Length: 30\r\n\r\n", "Content-Length: 30\r\n", binary},
		{"post_body_looks_like_head", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 18\r\n\r\n", "Host: h\r\nContent-Length: 18\r\n", []byte("X: y\r\n\r\nGET / HTTP")},
	} {
		t.Run(c.name, func(t *testing.T) {
			buf := append([]byte(c.head), c.body...)
			for _, cuts := range headSplits(len(buf)) {
				var p Parser
				var h RequestHead
				h.Reset(make([]Field, 8))
				var n int
				var err error
				for _, k := range append(cuts, len(buf)) {
					if n, err = p.ParseRequest(buf[:k], &h); err != ErrNeedMore {
						break
					}
				}
				if err != nil || n != len(c.head) {
					t.Fatalf("cuts %v: n, err = %d, %v", cuts, n, err)
				}
				if string(h.Raw) != c.raw {
					t.Fatalf("cuts %v: Raw = %q, want %q", cuts, h.Raw, c.raw)
				}
				if len(h.Raw) > 0 && !bytes.HasSuffix(buf[:n-2], h.Raw) {
					t.Fatalf("Raw is not the bytes right before the final CRLF")
				}
			}
		})
	}
}

// TestFieldCapacity checks that every field name and value, and Host,
// from the fast and the strict paths alike, has its length as capacity:
// appending to one must copy it, not write over the bytes after it in the
// input.
func TestFieldCapacity(t *testing.T) {
	heads := []string{
		"GET / HTTP/1.1\r\nHost: a\r\nAccept:\tx\r\nX:  y\r\nUser-Agent: z\r\n\r\nbody",
		"GET / HTTP/1.1\r\nHost:\texample.com\r\n\r\n",
	}
	for _, name := range fixtureNames {
		heads = append(heads, string(readFixture(t, name)))
	}
	for _, head := range heads {
		for _, p := range []Parser{{}, Parser{}.strictPaths()} {
			buf := []byte(head)
			var h RequestHead
			h.Reset(make([]Field, 32))
			n, err := p.ParseRequest(buf, &h)
			if err != nil {
				t.Fatalf("%q: %v", head, err)
			}
			checkSane(t, buf, n, &h.FieldSection)
		}
	}
}
