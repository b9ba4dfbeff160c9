package wire

import (
	"fmt"
	"strings"
	"testing"
)

// obsFoldCases are responses with obs-fold that Parser.AllowObsFold
// accepts: want is every field as "name: value" (one per line) and raw
// the Raw field section after the obs-folds were replaced with SP.
var obsFoldCases = []struct {
	name, in, want, raw string
}{
	{"sp", "HTTP/1.1 200 OK\r\nX: a\r\n b\r\nContent-Length: 0\r\n\r\n",
		"X: a   b\nContent-Length: 0", "X: a   b\r\nContent-Length: 0\r\n"},
	{"htab_and_ows", "HTTP/1.1 200 OK\r\nX: a \t\r\n\t  b c \r\nY: z\r\n\r\n",
		"X: a \t     b c\nY: z", "X: a \t     b c \r\nY: z\r\n"},
	{"two_folds", "HTTP/1.1 200 OK\r\nX: a\r\n b\r\n c\r\n\r\n",
		"X: a   b   c", "X: a   b   c\r\n"},
	{"empty_first_part", "HTTP/1.1 200 OK\r\nX:\r\n b\r\n\r\n",
		"X: b", "X:   b\r\n"},
	{"empty_continuation", "HTTP/1.1 200 OK\r\nX: a\r\n \r\nY: z\r\n\r\n",
		"X: a\nY: z", "X: a   \r\nY: z\r\n"},
	{"colon_in_continuation", "HTTP/1.1 200 OK\r\nX: a\r\n b: c\r\n\r\n",
		"X: a   b: c", "X: a   b: c\r\n"},
	{"host_not_interpreted", "HTTP/1.1 200 OK\r\nHost: a\r\n b\r\n\r\n",
		"Host: a   b", "Host: a   b\r\n"},
	{"long_lines", "HTTP/1.1 200 OK\r\nSet-Cookie: " + strings.Repeat("v", 40) + "\r\n " +
		strings.Repeat("w", 300) + "\r\nContent-Type: text/plain\r\n\r\n",
		"Set-Cookie: " + strings.Repeat("v", 40) + "   " + strings.Repeat("w", 300) + "\nContent-Type: text/plain",
		"Set-Cookie: " + strings.Repeat("v", 40) + "   " + strings.Repeat("w", 300) + "\r\nContent-Type: text/plain\r\n"},
}

// fieldList renders fs.Fields as obsFoldCases' want.
func fieldList(fs *FieldSection) string {
	var lines []string
	for _, f := range fs.Fields {
		lines = append(lines, fmt.Sprintf("%s: %s", f.Name, f.Value))
	}
	return strings.Join(lines, "\n")
}

func TestParseResponseObsFold(t *testing.T) {
	for _, c := range obsFoldCases {
		t.Run(c.name, func(t *testing.T) {
			for _, strict := range []bool{false, true} {
				p := Parser{AllowObsFold: true}
				if strict {
					p = p.strictPaths()
				}
				// Each feeding gets a fresh copy: the parser writes SP
				// over the obs-folds.
				cuts := append(headSplits(len(c.in)), nil)
				for _, cut := range cuts {
					buf := []byte(c.in)
					h := new(ResponseHead)
					h.Reset(make([]Field, 8))
					var n int
					var err error
					for _, k := range append(cut, len(buf)) {
						if n, err = p.ParseResponse(buf[:k], h); err != ErrNeedMore {
							break
						}
					}
					if err != nil {
						t.Fatalf("strict=%v cuts %v: %v", strict, cut, err)
					}
					if n != len(c.in) {
						t.Fatalf("n = %d, want %d", n, len(c.in))
					}
					if got := fieldList(&h.FieldSection); got != c.want {
						t.Fatalf("strict=%v cuts %v: fields\n%q, want\n%q", strict, cut, got, c.want)
					}
					if string(h.Raw) != c.raw || !h.ObsFold {
						t.Fatalf("Raw = %q ObsFold=%v, want %q true", h.Raw, h.ObsFold, c.raw)
					}
					if string(buf[:17]) != c.in[:17] || string(buf[17:n-2]) != c.raw {
						t.Fatalf("buf = %q", buf) // only the obs-folds changed
					}
				}
			}
		})
	}
}

func TestParseResponseObsFoldReject(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     Kind
		off      int
	}{
		{"first_line", "HTTP/1.1 200 OK\r\n X: a\r\n\r\n", ErrObsFold, 17},
		{"content_length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n 5\r\n\r\n", ErrObsFold, 36},
		{"transfer_encoding", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n ,chunked\r\n\r\n", ErrObsFold, 45},
		{"connection", "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n close\r\n\r\n", ErrObsFold, 41},
		{"ctl", "HTTP/1.1 200 OK\r\nX: a\r\n b\x01\r\n\r\n", ErrFieldValue, 25},
		{"bare_cr", "HTTP/1.1 200 OK\r\nX: a\r\n b\rc\r\n\r\n", ErrLineEnding, 25},
		{"bare_lf", "HTTP/1.1 200 OK\r\nX: a\r\n b\n\r\n", ErrLineEnding, 25},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := Parser{AllowObsFold: true}
			_, _, err := parseResp(&p, c.in)
			assertKind(t, err, c.want)
			if e := err.(*Error); e.Offset != c.off {
				t.Fatalf("Offset = %d, want %d", e.Offset, c.off)
			}
			for _, cuts := range headSplits(len(c.in)) {
				if r := feedResponse(t, &p, []byte(c.in), cuts); r.kind != c.want {
					t.Fatalf("cuts %v: %v, want %v", cuts, r, c.want)
				}
			}
		})
	}
}

// TestParseRequestObsFoldAlways: AllowObsFold does not apply to requests
// (RFC 9112 §5.2: a server rejects obs-fold or unfolds; brisk rejects).
func TestParseRequestObsFoldAlways(t *testing.T) {
	p := Parser{AllowObsFold: true}
	in := "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b\r\n\r\n"
	_, _, err := parseReq(&p, in)
	assertKind(t, err, ErrObsFold)
	if e := err.(*Error); e.Offset != 31 {
		t.Fatalf("Offset = %d, want 31", e.Offset)
	}
}
