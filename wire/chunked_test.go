package wire

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// chunkResult is what feeding a chunked body to a decoder produced.
type chunkResult struct {
	body     string
	trailers string // "name=value;" for each trailer field
	used     int    // bytes of the input consumed in total
	done     bool
	err      error
}

// feedChunked feeds in to d in pieces ending at the offsets in cuts (then
// the rest), the way a connection's buffer does: unconsumed bytes are kept
// at the front and new input appended. It checks the Decode contract on
// every call and that the bytes after the body are returned untouched.
func feedChunked(t *testing.T, d *ChunkedDecoder, in []byte, cuts []int) chunkResult {
	t.Helper()
	var res chunkResult
	var buf, body []byte
	next := 0
	for _, cut := range append(cuts, len(in)) {
		buf = append(buf, in[next:cut]...)
		next = cut
		n, c, err := d.Decode(buf)
		if n < 0 || n > c || c > len(buf) {
			t.Fatalf("Decode(%d bytes) = n %d, consumed %d", len(buf), n, c)
		}
		body = append(body, buf[:n]...)
		res.used += c
		if err != nil {
			res.err, res.body = err, string(body)
			return res
		}
		if d.Done() {
			res.done, res.body = true, string(body)
			for _, f := range d.Trailers {
				if cap(f.Name) != len(f.Name) || cap(f.Value) != len(f.Value) {
					t.Fatalf("trailer %q: %q has capacity %d, %d", f.Name, f.Value, cap(f.Name), cap(f.Value))
				}
				res.trailers += string(f.Name) + "=" + string(f.Value) + ";"
			}
			if !bytes.Equal(buf[c:], in[res.used:next]) {
				t.Fatalf("bytes after the body changed: %q, want %q", buf[c:], in[res.used:next])
			}
			return res
		}
		buf = append(buf[:0], buf[c:]...)
	}
	res.body = string(body)
	return res
}

// splits returns the ways each test feeds an input of length n: whole,
// byte by byte, and in two pieces split at every index.
func splits(n int) map[string][]int {
	s := map[string][]int{"whole": nil}
	var one []int
	for i := 1; i < n; i++ {
		one = append(one, i)
		s[fmt.Sprintf("split_%d", i)] = []int{i}
	}
	s["bytewise"] = one
	return s
}

// nextMessage follows each valid body, to check it is left alone.
const nextMessage = "GET /next HTTP/1.1\r\nHost: a\r\n\r\n"

var validChunked = []struct {
	name, in, body, trailers string
}{
	{"empty", "0\r\n\r\n", "", ""},
	{"one_chunk", "5\r\nhello\r\n0\r\n\r\n", "hello", ""},
	{"two_chunks", "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", "hello world", ""},
	{"hex_case", "a\r\n0123456789\r\nA\r\nabcdefghij\r\n0\r\n\r\n", "0123456789abcdefghij", ""},
	{"leading_zeros", "0005\r\nhello\r\n000\r\n\r\n", "hello", ""},
	{"sixteen_digits", "0000000000000005\r\nhello\r\n0000000000000000\r\n\r\n", "hello", ""},
	{"data_with_crlf", "7\r\na\r\nb\r\nc\r\n0\r\n\r\n", "a\r\nb\r\nc", ""},
	{"ext_token", "5;name=value\r\nhello\r\n6;flag\r\n world\r\n0;done=1\r\n\r\n", "hello world", ""},
	{"ext_quoted", "5;a=\"b c;d\";e=f\r\nhello\r\n0\r\n\r\n", "hello", ""},
	{"ext_quoted_pair", "5;a=\"x\\\"y\\\\z\";b=\"\"\r\nhello\r\n0\r\n\r\n", "hello", ""},
	{"ext_quoted_htab_obs_text", "5;a=\"\tx\x80\xff\"\r\nhello\r\n0\r\n\r\n", "hello", ""},
	{"ext_many", "5;a;b;c=d;e=\"f\"\r\nhello\r\n0\r\n\r\n", "hello", ""},
	{"ext_tchars", "5;!#$%&'*+-.^_`|~=!#$%&'*+-.^_`|~09azAZ\r\nhello\r\n0\r\n\r\n", "hello", ""},
	{"trailers", "5\r\nhello\r\n0\r\nX-Checksum: 5d41\r\nX-Trailer-Two: v\r\n\r\n", "hello", "X-Checksum=5d41;X-Trailer-Two=v;"},
	{"trailer_ows", "0\r\nA:  \t v w \t\r\nB:\r\nC: \r\n\r\n", "", "A=v w;B=;C=;"},
	{"trailer_obs_text", "3\r\nabc\r\n0\r\nX-T: caf\xc3\xa9\r\n\r\n", "abc", "X-T=caf\xc3\xa9;"},
	{"trailer_after_ext", "3\r\nabc\r\n0;x=y\r\nX-T: 1\r\n\r\n", "abc", "X-T=1;"},
	{"one_byte_chunks", strings.Repeat("1\r\nx\r\n", 64) + "0\r\n\r\n", strings.Repeat("x", 64), ""},
	{"big_chunk", "3e8\r\n" + strings.Repeat("0123456789", 100) + "\r\n0\r\n\r\n", strings.Repeat("0123456789", 100), ""},
}

func TestChunkedDecodeValid(t *testing.T) {
	for _, tc := range validChunked {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in + nextMessage)
			storage := make([]Field, 4)
			for how, cuts := range splits(len(in)) {
				d := ChunkedDecoder{Trailers: storage[:0]}
				got := feedChunked(t, &d, in, cuts)
				if got.err != nil || !got.done {
					t.Fatalf("%s: err %v, done %v", how, got.err, got.done)
				}
				if got.body != tc.body || got.trailers != tc.trailers || got.used != len(tc.in) {
					t.Fatalf("%s: body %q trailers %q used %d; want %q %q %d",
						how, got.body, got.trailers, got.used, tc.body, tc.trailers, len(tc.in))
				}
			}
		})
	}
}

// TestChunkedDecodeNilTrailers checks that the zero value validates and
// discards trailer fields.
func TestChunkedDecodeNilTrailers(t *testing.T) {
	var d ChunkedDecoder
	in := []byte("5\r\nhello\r\n0\r\nA: 1\r\nB: 2\r\n\r\n")
	n, c, err := d.Decode(in)
	if err != nil || !d.Done() || n != 5 || c != len(in) || d.Trailers != nil {
		t.Fatalf("n %d consumed %d err %v done %v trailers %v", n, c, err, d.Done(), d.Trailers)
	}
}

var invalidChunked = []struct {
	name, in string
	kind     Kind
	off      int // expected Offset, or -1 to skip
}{
	{"size_empty", "\r\nhello\r\n0\r\n\r\n", ErrChunkSize, 0},
	{"size_0x", "0x5\r\nhello\r\n0\r\n\r\n", ErrChunkSize, 1},
	{"size_plus", "+5\r\nhello\r\n0\r\n\r\n", ErrChunkSize, 0},
	{"size_minus", "-1\r\nh\r\n0\r\n\r\n", ErrChunkSize, 0},
	{"size_leading_space", " 5\r\nhello\r\n0\r\n\r\n", ErrChunkSize, 0},
	{"size_trailing_space", "5 \r\nhello\r\n0\r\n\r\n", ErrChunkSize, 1},
	{"size_trailing_htab", "5\t\r\nhello\r\n0\r\n\r\n", ErrChunkSize, 1},
	{"size_bws_before_ext", "5 ;a=b\r\nhello\r\n0\r\n\r\n", ErrChunkSize, 1},
	{"size_not_hex", "5g\r\nhello\r\n0\r\n\r\n", ErrChunkSize, 1},
	{"size_17_digits", "00000000000000005\r\nhello\r\n0\r\n\r\n", ErrChunkSize, 16},
	{"size_overflow_wrap", "10000000000000005\r\nhello\r\n0\r\n\r\n", ErrChunkSize, 16},
	{"size_over_int64", "8000000000000000\r\n", ErrChunkSize, 15},
	{"size_uint64_max", "ffffffffffffffff\r\n", ErrChunkSize, 15},
	{"size_second_chunk", "1\r\na\r\nz\r\n", ErrChunkSize, 6},
	{"size_bare_lf", "5\nhello\r\n0\r\n\r\n", ErrLineEnding, 1},
	{"size_bare_cr", "5\rhello\r\n0\r\n\r\n", ErrLineEnding, 2},
	{"size_cr_cr_lf", "5\r\r\nhello\r\n0\r\n\r\n", ErrLineEnding, 2},
	{"last_bare_lf", "5\r\nhello\r\n0\n\n", ErrLineEnding, 11},
	{"data_bare_lf", "5\r\nhello\n0\r\n\r\n", ErrChunkData, 8},
	{"data_bare_cr", "5\r\nhello\r0\r\n\r\n", ErrChunkData, 9},
	{"data_overrun", "5\r\nhelloXX\r\n0\r\n\r\n", ErrChunkData, 8},
	{"data_short", "5\r\nhey\r\n0\r\n\r\n", ErrChunkData, 8},
	{"data_lf_cr", "1\r\na\n\r0\r\n\r\n", ErrChunkData, 4},
	{"ext_bare_lf", "5;a\nb\r\nhello\r\n0\r\n\r\n", ErrLineEnding, 3},
	{"ext_bare_cr", "5;a\rb\r\nhello\r\n0\r\n\r\n", ErrLineEnding, 4},
	{"ext_value_bare_lf", "5;a=b\nhello\r\n0\r\n\r\n", ErrLineEnding, 5},
	{"ext_quoted_bare_lf", "5;a=\"b\"\n", ErrLineEnding, 7},
	{"ext_quoted_crlf", "5;a=\"x\r\ny\"\r\nhello\r\n0\r\n\r\n", ErrChunkExt, 6},
	{"ext_quoted_lf", "5;a=\"x\ny\"\r\n", ErrChunkExt, 6},
	{"ext_quoted_nul", "5;a=\"x\x00\"\r\n", ErrChunkExt, 6},
	{"ext_quoted_del", "5;a=\"x\x7f\"\r\n", ErrChunkExt, 6},
	{"ext_quoted_pair_ctl", "5;a=\"x\\\x01\"\r\n", ErrChunkExt, 7},
	{"ext_quoted_pair_cr", "5;a=\"x\\\r\n", ErrChunkExt, 7},
	{"ext_after_quote", "5;a=\"b\"c\r\n", ErrChunkExt, 7},
	{"ext_empty_name", "5;\r\nhello\r\n0\r\n\r\n", ErrChunkExt, 2},
	{"ext_empty_name_eq", "5;=b\r\nhello\r\n0\r\n\r\n", ErrChunkExt, 2},
	{"ext_double_semicolon", "5;;a\r\n", ErrChunkExt, 2},
	{"ext_empty_value", "5;a=\r\nhello\r\n0\r\n\r\n", ErrChunkExt, 4},
	{"ext_double_eq", "5;a==b\r\n", ErrChunkExt, 4},
	{"ext_bws_after_semicolon", "5; a=b\r\nhello\r\n0\r\n\r\n", ErrChunkExt, 2},
	{"ext_bws_before_eq", "5;a =b\r\nhello\r\n0\r\n\r\n", ErrChunkExt, 3},
	{"ext_bws_after_eq", "5;a= b\r\nhello\r\n0\r\n\r\n", ErrChunkExt, 4},
	{"ext_trailing_space", "5;a=b \r\nhello\r\n0\r\n\r\n", ErrChunkExt, 5},
	{"ext_name_not_token", "5;a@b\r\nhello\r\n0\r\n\r\n", ErrChunkExt, 3},
	{"ext_value_not_token", "5;a=b,c\r\nhello\r\n0\r\n\r\n", ErrChunkExt, 5},
	{"ext_obs_text_unquoted", "5;a=\x80\r\n", ErrChunkExt, 4},
	{"ext_oversized", "5;a=" + strings.Repeat("x", 70000) + "\r\nhello\r\n0\r\n\r\n", ErrChunkOverhead, 1 + DefaultMaxExtensionBytes},
	{"ext_last_chunk_oversized", "0;" + strings.Repeat("x", 5000) + "\r\n\r\n", ErrChunkOverhead, 1 + DefaultMaxExtensionBytes},
	{"trailer_final_crlf_missing", "5\r\nhello\r\n0\r\nGET /next HTTP/1.1\r\nHost: example.com\r\n\r\n", ErrFieldName, 16},
	{"trailer_space_before_colon", "0\r\nX-T : v\r\n\r\n", ErrFieldName, 6},
	{"trailer_empty_name", "0\r\n: v\r\n\r\n", ErrFieldName, 3},
	{"trailer_name_not_token", "0\r\nX(T): v\r\n\r\n", ErrFieldName, 4},
	{"trailer_no_colon", "0\r\nX-T\r\n\r\n", ErrFieldName, 6},
	{"trailer_obs_fold", "0\r\nX: a\r\n b\r\n\r\n", ErrObsFold, 9},
	{"trailer_leading_space", "0\r\n X: a\r\n\r\n", ErrObsFold, 3},
	{"trailer_leading_htab", "0\r\n\tX: a\r\n\r\n", ErrObsFold, 3},
	{"trailer_nul", "5\r\nhello\r\n0\r\nX-T: a\x00b\r\n\r\n", ErrFieldValue, 19},
	{"trailer_del", "0\r\nX: a\x7f\r\n\r\n", ErrFieldValue, 7},
	{"trailer_vtab", "0\r\nX: \x0ba\r\n\r\n", ErrFieldValue, 6},
	{"trailer_bare_cr_value", "0\r\nX: a\rb\r\n\r\n", ErrLineEnding, 7},
	{"trailer_bare_cr_name", "0\r\nX\rY: a\r\n\r\n", ErrLineEnding, 4},
	{"trailer_bare_lf", "0\r\nX: a\nY: b\r\n\r\n", ErrLineEnding, 7},
	{"trailer_final_bare_lf", "0\r\nX: a\r\n\n", ErrLineEnding, 9},
	{"trailer_only_bare_lf", "0\r\n\n", ErrLineEnding, 3},
	{"trailer_final_cr_cr", "0\r\n\r\r\n", ErrLineEnding, 3},
	{"trailer_too_large", "0\r\nX: " + strings.Repeat("v", DefaultMaxTrailerBytes) + "\r\n\r\n", ErrTrailerTooLarge, 3 + DefaultMaxTrailerBytes},
	{"trailer_too_large_many_lines", "0\r\n" + strings.Repeat("X: 123456\r\n", 1000) + "\r\n", ErrTrailerTooLarge, 3 + DefaultMaxTrailerBytes},
}

func TestChunkedDecodeInvalid(t *testing.T) {
	for _, tc := range invalidChunked {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			cuts := splits(len(in))
			if len(in) > 2000 { // keep the quadratic split set small
				cuts = map[string][]int{"whole": nil, "split_1": {1}, "split_mid": {len(in) / 2}}
			}
			for how, c := range cuts {
				var d ChunkedDecoder
				got := feedChunked(t, &d, in, c)
				if !errors.Is(got.err, tc.kind) || KindOf(got.err) != tc.kind {
					t.Fatalf("%s: err %v, want %v", how, got.err, tc.kind)
				}
				var e *Error
				if !errors.As(got.err, &e) || e.Offset != tc.off {
					t.Fatalf("%s: err %v, want offset %d", how, got.err, tc.off)
				}
				if d.Done() {
					t.Fatalf("%s: Done after error", how)
				}
				// The error is sticky.
				if n, c, err := d.Decode(in); n != 0 || c != 0 || err != got.err {
					t.Fatalf("%s: after error: %d %d %v", how, n, c, err)
				}
			}
		})
	}
}

// TestChunkedDecodeNeedMore checks that every proper prefix of a valid
// body is accepted without error and without Done, and that the largest
// chunk-size is accepted.
func TestChunkedDecodeNeedMore(t *testing.T) {
	for _, tc := range validChunked {
		in := []byte(tc.in)
		for i := range len(in) {
			var d ChunkedDecoder
			if _, _, err := d.Decode(append([]byte(nil), in[:i]...)); err != nil || d.Done() {
				t.Fatalf("%s: prefix %d: err %v, done %v", tc.name, i, err, d.Done())
			}
		}
	}
	var d ChunkedDecoder
	in := []byte("7fffffffffffffff\r\nabc")
	n, c, err := d.Decode(in)
	if err != nil || n != 3 || c != len(in) || d.Done() {
		t.Fatalf("largest size: n %d consumed %d err %v", n, c, err)
	}
}

// TestChunkedDecodeInPlace checks that data is moved to the front of src
// and the consumed bytes are accounted exactly, across calls.
func TestChunkedDecodeInPlace(t *testing.T) {
	var d ChunkedDecoder
	src := []byte("3\r\nabc\r\n4;x=1\r\ndefg\r\n3\r\nhi")
	n, c, err := d.Decode(src)
	if err != nil || string(src[:n]) != "abcdefghi" || c != len(src) {
		t.Fatalf("n %d %q consumed %d err %v", n, src[:n], c, err)
	}
	src = []byte("j\r\n0\r\nT: 1\r\n")
	n, c, err = d.Decode(src)
	if err != nil || string(src[:n]) != "j" || c != 6 || d.Done() {
		t.Fatalf("n %d %q consumed %d err %v done %v", n, src[:n], c, err, d.Done())
	}
	src = []byte("T: 1\r\n\r\nnext")
	n, c, err = d.Decode(src)
	if err != nil || n != 0 || c != 8 || !d.Done() {
		t.Fatalf("n %d consumed %d err %v done %v", n, c, err, d.Done())
	}
	if n, c, err = d.Decode(src[c:]); n != 0 || c != 0 || err != nil {
		t.Fatalf("after Done: %d %d %v", n, c, err)
	}
	d.Reset()
	if d.Done() {
		t.Fatal("Done after Reset")
	}
	if n, c, err = d.Decode([]byte("0\r\n\r\n")); err != nil || !d.Done() || c != 5 || n != 0 {
		t.Fatalf("after Reset: %d %d %v", n, c, err)
	}
}

// TestChunkedDecodeLimits checks each limit at its boundary, with its
// zero (default) and negative (none) settings.
func TestChunkedDecodeLimits(t *testing.T) {
	ext := func(n int) string { return "1;" + strings.Repeat("e", n-1) + "\r\nx\r\n0\r\n\r\n" }
	trailer := func(n int) string { return "0\r\nX: " + strings.Repeat("v", n-7) + "\r\n\r\n" } // section of n bytes
	tests := []struct {
		name string
		d    ChunkedDecoder
		in   string
		want Kind
	}{
		{"ext_at_default", ChunkedDecoder{}, ext(DefaultMaxExtensionBytes), 0},
		{"ext_over_default", ChunkedDecoder{}, ext(DefaultMaxExtensionBytes + 1), ErrChunkOverhead},
		{"ext_at_limit", ChunkedDecoder{MaxExtensionBytes: 10}, ext(10), 0},
		{"ext_over_limit", ChunkedDecoder{MaxExtensionBytes: 10}, ext(11), ErrChunkOverhead},
		{"ext_no_limit", ChunkedDecoder{MaxExtensionBytes: -1, MaxOverheadBytes: -1}, ext(100000), 0},
		{"ext_no_limit_overhead", ChunkedDecoder{MaxExtensionBytes: -1}, ext(100000), ErrChunkOverhead},
		{"trailer_at_default", ChunkedDecoder{}, trailer(DefaultMaxTrailerBytes), 0},
		{"trailer_over_default", ChunkedDecoder{}, trailer(DefaultMaxTrailerBytes + 1), ErrTrailerTooLarge},
		{"trailer_at_limit", ChunkedDecoder{MaxTrailerBytes: 20}, trailer(20), 0},
		{"trailer_over_limit", ChunkedDecoder{MaxTrailerBytes: 20}, trailer(21), ErrTrailerTooLarge},
		{"trailer_no_limit", ChunkedDecoder{MaxTrailerBytes: -1}, trailer(100000), 0},
		{"trailers_full", ChunkedDecoder{Trailers: make([]Field, 0, 2)}, "0\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", ErrTooManyFields},
		{"trailers_fit", ChunkedDecoder{Trailers: make([]Field, 0, 2)}, "0\r\nA: 1\r\nB: 2\r\n\r\n", 0},
		{"trailers_zero_cap", ChunkedDecoder{Trailers: []Field{}}, "0\r\nA: 1\r\n\r\n", ErrTooManyFields},
		{"trailers_zero_cap_none", ChunkedDecoder{Trailers: []Field{}}, "0\r\n\r\n", 0},
		{"overhead_no_limit", ChunkedDecoder{MaxOverheadBytes: -1}, strings.Repeat("1;"+strings.Repeat("e", 4000)+"\r\nx\r\n", 100) + "0\r\n\r\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cuts := splits(len(tc.in))
			if len(tc.in) > 200 {
				cuts = map[string][]int{"whole": nil, "split_mid": {len(tc.in) / 2}}
			}
			for how, c := range cuts {
				d := tc.d
				if d.Trailers != nil {
					d.Trailers = make([]Field, 0, cap(d.Trailers))
				}
				got := feedChunked(t, &d, []byte(tc.in), c)
				if KindOf(got.err) != tc.want || (tc.want == 0 && !got.done) {
					t.Fatalf("%s: err %v, want %v (done %v)", how, got.err, tc.want, got.done)
				}
			}
		})
	}
}

// TestChunkedDecodeOverhead checks the CVE-2023-39326 class: a body of
// tiny chunks with long extensions is cut off after bounded input, while
// one-byte chunks without extensions stream forever.
func TestChunkedDecodeOverhead(t *testing.T) {
	attack := []byte("1;" + strings.Repeat("e", 1000) + "\r\nx\r\n")
	var d ChunkedDecoder
	read := 0
	var err error
	for read < 10<<20 && err == nil {
		buf := append([]byte(nil), attack...)
		var c int
		_, c, err = d.Decode(buf)
		read += c
	}
	if KindOf(err) != ErrChunkOverhead {
		t.Fatalf("after %d bytes: err %v, want ErrChunkOverhead", read, err)
	}
	if bound := DefaultMaxOverheadBytes + len(attack); read > bound {
		t.Fatalf("read %d bytes before ErrChunkOverhead, want at most %d", read, bound)
	}

	d = ChunkedDecoder{}
	oneByte := []byte(strings.Repeat("1\r\nx\r\n", 1000))
	for i := 0; i < 1000; i++ {
		buf := append([]byte(nil), oneByte...)
		if n, _, err := d.Decode(buf); err != nil || n != 1000 {
			t.Fatalf("one-byte chunks, round %d: n %d err %v", i, n, err)
		}
	}

	// Leading zeros pad a chunk line too: "0000000000000001" is 20 bytes
	// of framing per data byte, past the ratio.
	d = ChunkedDecoder{}
	padded := []byte(strings.Repeat("0000000000000001\r\nx\r\n", 2000))
	if _, _, err := d.Decode(padded); KindOf(err) != ErrChunkOverhead {
		t.Fatalf("zero-padded sizes: err %v, want ErrChunkOverhead", err)
	}
}

// BenchmarkChunkedDecode decodes bodies whole, in place. Each iteration
// first restores the input (a copy of the same size, included in the
// time).
func BenchmarkChunkedDecode(b *testing.B) {
	bodies := []struct{ name, in string }{
		{"4k_one_chunk", "1000\r\n" + strings.Repeat("x", 4096) + "\r\n0\r\n\r\n"},
		{"4k_64b_chunks", strings.Repeat("40\r\n"+strings.Repeat("x", 64)+"\r\n", 64) + "0\r\n\r\n"},
		{"64k_8k_chunks", strings.Repeat("2000\r\n"+strings.Repeat("x", 8192)+"\r\n", 8) + "0\r\n\r\n"},
		{"small_ext_trailers", "5;a=b\r\nhello\r\n6;c=\"d\"\r\n world\r\n0\r\nX-A: 1\r\nX-Checksum: 5d41\r\n\r\n"},
		{"1b_chunks", strings.Repeat("1\r\nx\r\n", 256) + "0\r\n\r\n"},
	}
	for _, body := range bodies {
		b.Run(body.name, func(b *testing.B) {
			in := []byte(body.in)
			buf := make([]byte, len(in))
			d := ChunkedDecoder{Trailers: make([]Field, 0, 4)}
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				copy(buf, in)
				d.Reset()
				if _, _, err := d.Decode(buf); err != nil || !d.Done() {
					b.Fatal(err)
				}
			}
		})
	}
}
