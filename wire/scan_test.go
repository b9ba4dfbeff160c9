package wire

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// valueEndRef is valueEnd one byte at a time.
func valueEndRef(b []byte, i int) int {
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return i
		}
	}
	return len(b)
}

// targetStopRef is targetStop one byte at a time.
func targetStopRef(b []byte, i int) int {
	for ; i < len(b); i++ {
		if c := b[i]; c <= ' ' || c >= 0x7f || c == '#' || c == '%' {
			return i
		}
	}
	return len(b)
}

// TestScanners checks valueEnd and targetStop, and their Go forms
// valueEndGeneric and targetStopGeneric, against the byte-at-a-time
// references: every length up to 70 and start offset over a run of bytes
// the scan passes (fill), a single byte of every value at every position
// of that run, and random inputs of bytes from randLo up (with an
// occasional byte of any value).
func TestScanners(t *testing.T) {
	type scan func([]byte, int) int
	for _, c := range []struct {
		name, genericName string
		fast, generic     scan
		ref               scan
		fill              string
		seed1, seed2      uint64
		randLo, randN     int
	}{
		{"valueEnd", "valueEndGeneric", valueEnd, valueEndGeneric, valueEndRef, "a~ \x80\xff!\t9Z", 1, 2, 0x20, 0xe0},
		{"targetStop", "targetStopGeneric", targetStop, targetStopGeneric, targetStopRef, "a~/!9Z?=&", 3, 4, 0x21, 0x5e},
	} {
		t.Run(c.name, func(t *testing.T) {
			check := func(b []byte, i int) {
				t.Helper()
				want := c.ref(b, i)
				if got := c.fast(b, i); got != want {
					t.Fatalf("%s(%q, %d) = %d, want %d", c.name, b, i, got, want)
				}
				if got := c.generic(b, i); got != want {
					t.Fatalf("%s(%q, %d) = %d, want %d", c.genericName, b, i, got, want)
				}
			}
			for n := 0; n <= 70; n++ {
				base := make([]byte, n)
				for i := range base {
					base[i] = c.fill[i%len(c.fill)]
				}
				for i := 0; i <= n; i++ {
					check(base, i)
				}
				for j := 0; j < n; j++ {
					for v := 0; v < 256; v++ {
						b := append([]byte(nil), base...)
						b[j] = byte(v)
						check(b, 0)
						check(b, j/2)
						check(b, j)
					}
				}
			}
			r := rand.New(rand.NewPCG(c.seed1, c.seed2))
			for range 20000 {
				b := make([]byte, r.IntN(100))
				for i := range b {
					b[i] = byte(c.randLo + r.IntN(c.randN))
					if r.IntN(32) == 0 {
						b[i] = byte(r.IntN(256))
					}
				}
				check(b, r.IntN(len(b)+1))
			}
		})
	}
}

// TestFieldLines checks each form of fieldLines (fieldLinesImpls) against
// fieldLinesRef on a field section cut at every offset and
// length, with every byte value at every position of a short one, and
// random ones of up to three chunks with lines up to longer than a chunk:
// the same lines, names, colons, values and ids.
func TestFieldLines(t *testing.T) {
	for name, fieldLines := range fieldLinesImpls() {
		t.Run(name, func(t *testing.T) { testFieldLines(t, fieldLines) })
	}
}

func testFieldLines(t *testing.T, fieldLines func(b []byte, ls *lineSpans) int) {
	check := func(b []byte) {
		t.Helper()
		if len(b) < 16 {
			return // fieldLines needs 16 bytes
		}
		var got, want lineSpans
		k, wk := fieldLines(b, &got), fieldLinesRef(b, &want)
		if k != wk || got != want {
			t.Fatalf("fieldLines(%q) = %d %v, want %d %v", b, k, got[:k], wk, want[:wk])
		}
	}
	section := "Host: example.com\r\nConnection: keep-alive\r\nX-Forwarded-For: 10.0.0.1\r\n" +
		"content-length: 12\r\nTRANSFER-ENCODING:chunked\r\nIf-Modified-Since: x\r\nX-Requested-With: a\r\n" +
		"Upgrade-Insecure-Requests: 1\r\nAccept: */*\r\nE:\r\nF: \r\nG:  x\r\nH: x \r\nI: a\tb\r\n" +
		"Cookie: a=b; c=d; e=f; g=h; i=j; k=l; m=n; o=p; q=r; s=t; u=v; w=x; y=z\r\n" +
		"X-Long: " + strings.Repeat("0123456789", 25) + "\r\nX-Longer: " + strings.Repeat("0123456789", 26) + "\r\nA: b\r\n\r\n"
	for i := range len(section) {
		for j := i; j <= len(section); j++ {
			check([]byte(section[i:j]))
		}
	}
	base := "Host: a\r\nConnection: close\r\nUser-Agent: x\r\n\r\n"
	for j := range len(base) {
		for v := range 256 {
			b := []byte(base)
			b[j] = byte(v)
			check(b)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	names := []string{"Host", "host", "HOST", "Content-Length", "Transfer-Encoding", "Accept-Encoding",
		"If-Modified-Since", "X-Requested-With", "X-A-Name-Of-Twenty-Four-B", "x", "Cache-Control", "Etag", "",
		"X-Request-Id", "x_under", "A.b", "!#$%&'*+-.^_`|~", "Upgrade-Insecure-Requests-With-A-Long-Name", "a@b", "Zz09-"}
	values := []string{"", " ", "  ", "a", " a", "a ", "gzip, br", "a\tb", "\t", "\x7f", "\x80\xff", "x:y",
		strings.Repeat("v", 100), strings.Repeat("w", 240), strings.Repeat("x", 260)}
	ends := []string{"\r\n", "\r\n", "\r\n", "\n", "\r", "\r\r\n", ""}
	for range 50000 {
		var b []byte
		for len(b) < 3*lineChunk && r.IntN(20) != 0 {
			b = append(b, names[r.IntN(len(names))]...)
			if r.IntN(10) != 0 {
				b = append(b, ':')
			}
			b = append(b, values[r.IntN(len(values))]...)
			b = append(b, ends[r.IntN(len(ends))]...)
		}
		check(b)
	}
}
