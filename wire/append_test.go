package wire

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestAppendStatusLine(t *testing.T) {
	tests := []struct {
		name   string
		code   int
		reason string
		want   string
	}{
		{"ok_default_reason", 200, "", "HTTP/1.1 200 OK\r\n"},
		{"custom_reason", 200, "Fine", "HTTP/1.1 200 Fine\r\n"},
		{"not_found", 404, "", "HTTP/1.1 404 Not Found\r\n"},
		{"content_too_large", 413, "", "HTTP/1.1 413 Content Too Large\r\n"},
		{"unregistered_empty_reason", 599, "", "HTTP/1.1 599 \r\n"},
		{"continue", 100, "", "HTTP/1.1 100 Continue\r\n"},
		{"highest", 599, "", "HTTP/1.1 599 \r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(AppendStatusLine([]byte("x"), tc.code, tc.reason)); got != "x"+tc.want {
				t.Fatalf("string reason: %q, want %q", got, "x"+tc.want)
			}
			if got := string(AppendStatusLine(nil, tc.code, []byte(tc.reason))); got != tc.want {
				t.Fatalf("[]byte reason: %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAppendLines(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"request_line", string(AppendRequestLine(nil, "GET", "/a?b=c")), "GET /a?b=c HTTP/1.1\r\n"},
		{"request_line_bytes", string(AppendRequestLine(nil, []byte("OPTIONS"), []byte("*"))), "OPTIONS * HTTP/1.1\r\n"},
		{"field", string(AppendField(nil, "Content-Type", []byte("text/plain"))), "Content-Type: text/plain\r\n"},
		{"field_empty_value", string(AppendField(nil, []byte("X-Empty"), "")), "X-Empty: \r\n"},
		{"content_length_zero", string(AppendContentLength(nil, 0)), "Content-Length: 0\r\n"},
		{"content_length", string(AppendContentLength(nil, 1234567890123)), "Content-Length: 1234567890123\r\n"},
		{"chunk_size_1", string(AppendChunkSize(nil, 1)), "1\r\n"},
		{"chunk_size_hex", string(AppendChunkSize(nil, 0xabc)), "abc\r\n"},
		{"chunk_size_4k", string(AppendChunkSize(nil, 4096)), "1000\r\n"},
		{"chunk_size_max", string(AppendChunkSize(nil, math.MaxInt)), map[int]string{32: "7fffffff\r\n", 64: "7fffffffffffffff\r\n"}[strconv.IntSize]},
		{"last_chunk", string(AppendLastChunk(nil, nil)), "0\r\n\r\n"},
		{"last_chunk_trailers", string(AppendLastChunk(nil, []Field{
			{Name: []byte("X-A"), Value: []byte("1")}, {Name: []byte("X-B"), Value: []byte("two words")},
		})), "0\r\nX-A: 1\r\nX-B: two words\r\n\r\n"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestStatusText(t *testing.T) {
	registered := map[int]string{
		100: "Continue", 101: "Switching Protocols", 103: "Early Hints",
		200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information",
		204: "No Content", 205: "Reset Content", 206: "Partial Content",
		300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other",
		304: "Not Modified", 305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
		400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden",
		404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable",
		407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict",
		410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
		414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
		417: "Expectation Failed", 421: "Misdirected Request", 422: "Unprocessable Content",
		425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required",
		429: "Too Many Requests", 431: "Request Header Fields Too Large",
		451: "Unavailable For Legal Reasons",
		500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
		503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
		511: "Network Authentication Required",
	}
	for code := -1; code < 1000; code++ {
		if got := StatusText(code); got != registered[code] {
			t.Errorf("StatusText(%d) = %q, want %q", code, got, registered[code])
		}
	}
}

func TestValidFieldName(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"simple", "Content-Type", true},
		{"all_tchars", "!#$%&'*+-.^_`|~09azAZ", true},
		{"empty", "", false},
		{"space", "X Y", false},
		{"colon", "X:", false},
		{"cr", "X\r", false},
		{"lf_injection", "X\nSet-Cookie", false},
		{"nul", "X\x00", false},
		{"separator", "X(Y)", false},
		{"obs_text", "X\x80", false},
	}
	for _, tc := range tests {
		if got := ValidFieldName(tc.in); got != tc.want {
			t.Errorf("%s: ValidFieldName(%q) = %v", tc.name, tc.in, got)
		}
		if got := ValidFieldName([]byte(tc.in)); got != tc.want {
			t.Errorf("%s: ValidFieldName([]byte(%q)) = %v", tc.name, tc.in, got)
		}
	}
}

func TestValidFieldValue(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"empty", "", true},
		{"simple", "text/html; charset=utf-8", true},
		{"inner_htab", "a\tb", true},
		{"obs_text", "caf\xc3\xa9", true},
		{"quotes_and_symbols", `"x" <y> {z} \ ~`, true},
		{"crlf_injection", "a\r\nSet-Cookie: x=1", false},
		{"bare_lf", "a\nb", false},
		{"bare_cr", "a\rb", false},
		{"nul", "a\x00b", false},
		{"del", "a\x7f", false},
		{"vtab", "a\x0bb", false},
		{"leading_space", " a", false},
		{"trailing_htab", "a\t", false},
		{"only_space", " ", false},
	}
	for _, tc := range tests {
		if got := ValidFieldValue(tc.in); got != tc.want {
			t.Errorf("%s: ValidFieldValue(%q) = %v", tc.name, tc.in, got)
		}
		if got := ValidFieldValue([]byte(tc.in)); got != tc.want {
			t.Errorf("%s: ValidFieldValue([]byte(%q)) = %v", tc.name, tc.in, got)
		}
	}
}

// TestValidFieldValueAgreesWithTrailer checks that every single-byte
// value ValidFieldValue accepts parses back unchanged as a trailer field,
// and every one it refuses is refused by the parser or trimmed away.
func TestValidFieldValueAgreesWithTrailer(t *testing.T) {
	for c := 0; c < 256; c++ {
		v := "a" + string([]byte{byte(c)}) + "b"
		in := []byte("0\r\nX: " + v + "\r\n\r\n")
		d := ChunkedDecoder{Trailers: make([]Field, 0, 1)}
		_, _, err := d.Decode(in)
		if ok := ValidFieldValue(v); ok != (err == nil) {
			t.Errorf("byte %#x: ValidFieldValue %v, decode err %v", c, ok, err)
		} else if ok && string(d.Trailers[0].Value) != v {
			t.Errorf("byte %#x: decoded %q", c, d.Trailers[0].Value)
		}
	}
}

// TestAppendChunkedRoundTrip encodes bodies with AppendChunkSize and
// AppendLastChunk and checks the decoder returns them unchanged.
func TestAppendChunkedRoundTrip(t *testing.T) {
	tests := []struct {
		name     string
		chunks   []string
		trailers []Field
	}{
		{"empty", nil, nil},
		{"one", []string{"hello"}, nil},
		{"many", []string{"a", "bc", strings.Repeat("d", 255), strings.Repeat("e", 4096), "\r\n0\r\n\r\n"}, nil},
		{"trailers", []string{"x"}, []Field{{Name: []byte("X-Sum"), Value: []byte("abc")}, {Name: []byte("X-B"), Value: []byte("")}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var enc []byte
			var want string
			for _, c := range tc.chunks {
				enc = AppendChunkSize(enc, len(c))
				enc = append(append(enc, c...), "\r\n"...)
				want += c
			}
			enc = AppendLastChunk(enc, tc.trailers)
			var wantTrailers string
			for _, f := range tc.trailers {
				wantTrailers += string(f.Name) + "=" + string(f.Value) + ";"
			}
			for how, cuts := range map[string][]int{"whole": nil, "halves": {len(enc) / 2}, "thirds": {len(enc) / 3, 2 * len(enc) / 3}} {
				d := ChunkedDecoder{Trailers: make([]Field, 0, 4)}
				got := feedChunked(t, &d, bytes.Clone(enc), cuts)
				if got.err != nil || !got.done || got.body != want || got.trailers != wantTrailers || got.used != len(enc) {
					t.Fatalf("%s: %+v", how, got)
				}
			}
		})
	}
}

// BenchmarkAppendResponseHead appends a status line and three fields, as
// a server does for a small response.
func BenchmarkAppendResponseHead(b *testing.B) {
	dst := make([]byte, 0, 256)
	server, date := []byte("brisk"), []byte("Sun, 30 Nov 2025 04:12:00 GMT")
	b.ReportAllocs()
	b.SetBytes(int64(len(appendResponseHead(dst, server, date))))
	for b.Loop() {
		dst = appendResponseHead(dst[:0], server, date)
	}
}

func appendResponseHead(dst, server, date []byte) []byte {
	dst = AppendStatusLine(dst, 200, "")
	dst = AppendField(dst, "Server", server)
	dst = AppendField(dst, "Date", date)
	dst = AppendContentLength(dst, 13)
	return append(dst, "\r\n"...)
}

// BenchmarkAppendChunkSize is the per-chunk framing cost of a chunked
// response.
func BenchmarkAppendChunkSize(b *testing.B) {
	dst := make([]byte, 0, 64)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		dst = AppendChunkSize(dst[:0], i&0xffff+1)
	}
}
