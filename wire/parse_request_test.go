package wire

import (
	"strings"
	"testing"
)

// validRequests are heads that must parse, with what the parse must find.
// Each is also fed through the split-feeding harness.
var validRequests = []struct {
	name, in string
	p        Parser
	check    func(t *testing.T, h *RequestHead)
}{
	{name: "get_root", in: "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, string(h.Method) == "GET" && string(h.Target) == "/" && h.Minor == 1 && string(h.Host) == "example.com", "GET / 1.1")
	}},
	{name: "get_query", in: "GET /search?q=caf%C3%A9&page=2 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, string(h.Target) == "/search?q=caf%C3%A9&page=2" && h.Form == OriginForm, "target")
	}},
	{name: "post_cl", in: "POST /submit HTTP/1.1\r\nHost: example.com\r\nContent-Length: 11\r\n\r\nhello world", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.ContentLength == 11 && h.Framing() == FramingLength, "cl 11")
	}},
	{name: "put_cl", in: "PUT /items/7 HTTP/1.1\r\nHost: example.com\r\nContent-Length: 7\r\n\r\n{\"n\":7}"},
	{name: "delete", in: "DELETE /items/7 HTTP/1.1\r\nHost: example.com\r\n\r\n"},
	{name: "patch", in: "PATCH /items/7 HTTP/1.1\r\nHost: example.com\r\nContent-Length: 0\r\n\r\n"},
	{name: "head", in: "HEAD /h HTTP/1.1\r\nHost: example.com\r\n\r\n"},
	{name: "method_extension", in: "PURGE /cache HTTP/1.1\r\nHost: example.com\r\n\r\n"},
	{name: "method_short", in: "M / HTTP/1.1\r\nHost: h\r\n\r\n"},
	{name: "options_asterisk", in: "OPTIONS * HTTP/1.1\r\nHost: example.com\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.Form == AsteriskForm, "asterisk-form")
	}},
	{name: "options_origin", in: "OPTIONS /x HTTP/1.1\r\nHost: example.com\r\n\r\n"},
	{name: "connect_authority", in: "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.Form == AuthorityForm && string(h.Target) == "example.com:443", "authority-form")
	}},
	{name: "connect_ipv6", in: "CONNECT [::1]:8443 HTTP/1.1\r\nHost: [::1]:8443\r\n\r\n"},
	{name: "absolute_form", in: "GET http://example.com/abs?x=1 HTTP/1.1\r\nHost: other.example\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.Form == AbsoluteForm, "absolute-form")
	}},
	{name: "absolute_https_upper", in: "GET HTTPS://Example.com:8443 HTTP/1.1\r\nHost: example.com\r\n\r\n"},
	{name: "http10_no_host", in: "GET /old HTTP/1.0\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.Minor == 0 && h.Host == nil && !h.KeepAlive(), "1.0 close")
	}},
	{name: "http10_keep_alive", in: "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.KeepAlive(), "1.0 keep-alive")
	}},
	{name: "http12", in: "GET / HTTP/1.2\r\nHost: example.com\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.Minor == 2, "minor 2")
	}},
	{name: "chunked", in: "POST / HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.Chunked && h.TransferEncoding && h.Framing() == FramingChunked, "chunked")
	}},
	{name: "te_uppercase", in: "POST / HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: CHUNKED\r\n\r\n"},
	{name: "te_ows", in: "POST / HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding:\t chunked \t\r\n\r\n"},
	{name: "te_underscore_name_is_other_field", in: "POST / HTTP/1.1\r\nHost: example.com\r\nTransfer_Encoding: chunked\r\nContent-Length: 5\r\n\r\nhello", check: func(t *testing.T, h *RequestHead) {
		expect(t, !h.TransferEncoding && h.ContentLength == 5, "not TE")
	}},
	{name: "cl_leading_zeros", in: "POST / HTTP/1.1\r\nHost: example.com\r\nContent-Length: 0005\r\n\r\nhello", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.ContentLength == 5, "cl 5")
	}},
	{name: "cl_repeated_same", in: "POST / HTTP/1.1\r\nHost: example.com\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.ContentLength == 5, "cl 5")
	}},
	{name: "cl_list_same", in: "POST / HTTP/1.1\r\nHost: example.com\r\nContent-Length: 5 ,\t5\r\n\r\nhello", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.ContentLength == 5, "cl 5")
	}},
	{name: "cl_max_int64", in: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 9223372036854775807\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.ContentLength == 1<<63-1, "cl max")
	}},
	{name: "expect_100", in: "POST /e HTTP/1.1\r\nHost: example.com\r\nExpect: 100-Continue\r\nContent-Length: 5\r\n\r\nhello", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.Expect100, "expect 100")
	}},
	{name: "expect_100_http10_ignored", in: "POST /e HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello", check: func(t *testing.T, h *RequestHead) {
		expect(t, !h.Expect100, "1.0 expectation ignored")
	}},
	{name: "expect_unknown", in: "POST /e HTTP/1.1\r\nHost: example.com\r\nExpect: x-custom\r\nContent-Length: 0\r\n\r\n"},
	{name: "obs_text_value", in: "GET / HTTP/1.1\r\nHost: example.com\r\nX-Latin: caf\xc3\xa9 \x80\xff\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, string(h.Fields[1].Value) == "caf\xc3\xa9 \x80\xff", "obs-text kept")
	}},
	{name: "field_empty_values", in: "GET / HTTP/1.1\r\nHost: example.com\r\nX-Empty:\r\nX-Empty-Ows: \t\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, len(h.Fields) == 3 && len(h.Fields[1].Value) == 0 && len(h.Fields[2].Value) == 0, "empty values")
	}},
	{name: "field_ows", in: "GET / HTTP/1.1\r\nHost: example.com\r\nX-A:b\r\nX-B: a \t b\r\nX-C:   v  \t  \r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, string(h.Fields[1].Value) == "b" && string(h.Fields[2].Value) == "a \t b" && string(h.Fields[3].Value) == "v", "OWS trimmed")
	}},
	{name: "field_tchar_name", in: "GET / HTTP/1.1\r\nHost: example.com\r\n!#$%&'*+-.^_`|~09azAZ: tchar\r\n\r\n"},
	{name: "field_repeated", in: "GET / HTTP/1.1\r\nHost: example.com\r\nX-Dup: one\r\nx-dup: two\r\n\r\n"},
	{name: "host_port", in: "GET / HTTP/1.1\r\nHost: example.com:8080\r\n\r\n"},
	{name: "host_ipv4", in: "GET / HTTP/1.1\r\nHost: 192.0.2.1\r\n\r\n"},
	{name: "host_ipv6", in: "GET / HTTP/1.1\r\nHost: [2001:db8::1]:80\r\n\r\n"},
	{name: "host_pct", in: "GET / HTTP/1.1\r\nHost: ex%41mple.com\r\n\r\n"},
	{name: "host_empty_allowed", p: Parser{AllowEmptyHost: true}, in: "GET / HTTP/1.1\r\nHost:\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.Host != nil && len(h.Host) == 0, "empty host")
	}},
	{name: "connection_close", in: "GET / HTTP/1.1\r\nHost: h\r\nConnection: Upgrade,  CLOSE\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, h.ConnectionClose && !h.KeepAlive(), "close")
	}},
	{name: "leading_crlf", in: "\r\nGET /after-crlf HTTP/1.1\r\nHost: example.com\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, string(h.Target) == "/after-crlf", "target after CRLF")
	}},
	{name: "leading_crlf_twice", in: "\r\n\r\nGET / HTTP/1.1\r\nHost: example.com\r\n\r\n"},
	{name: "bare_lf_allowed", p: Parser{AllowBareLF: true}, in: "\nGET / HTTP/1.1\nHost: example.com\r\nX: y\n\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, string(h.Raw) == "Host: example.com\r\nX: y\n", "raw with bare LF")
	}},
	{name: "pct_encoded_target", in: "GET /a%2Fb/%E2%82%AC/%00x?q=%25&r=%0D%0A HTTP/1.1\r\nHost: example.com\r\n\r\n"},
	{name: "query_bare_pct", in: "GET /a%41?d=100%&e=%zz&f=%4&g=%%41 HTTP/1.1\r\nHost: h\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, string(h.Target) == "/a%41?d=100%&e=%zz&f=%4&g=%%41", "target with literal '%' in the query")
	}},
	{name: "query_bare_pct_last", in: "GET /?d=100% HTTP/1.1\r\nHost: h\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, string(h.Target) == "/?d=100%", "target ending in '%'")
	}},
	{name: "query_bare_pct_absolute", in: "GET http://h/p?d=1%z HTTP/1.1\r\nHost: h\r\n\r\n", check: func(t *testing.T, h *RequestHead) {
		expect(t, string(h.Target) == "http://h/p?d=1%z" && h.Form == AbsoluteForm, "absolute-form target with a literal '%'")
	}},
	{name: "target_sub_delims", in: "GET /p;x=1/:@!$&'()*+,=?q=/?:@~ HTTP/1.1\r\nHost: example.com\r\n\r\n"},
	{name: "long_target_4000", in: "GET /" + strings.Repeat("a", 4000) + " HTTP/1.1\r\nHost: h\r\n\r\n"},
	{name: "long_value_8000", in: "GET / HTTP/1.1\r\nHost: h\r\nX-Long: " + strings.Repeat("v", 8000) + "\r\n\r\n"},
	{name: "line_at_limit", p: Parser{MaxRequestLineBytes: 16}, in: "GET /23 HTTP/1.1\r\nHost: h\r\n\r\n"},
	{name: "head_at_limit", p: Parser{MaxHeaderBytes: 27}, in: "GET / HTTP/1.1\r\nHost: h\r\n\r\n"},
	{name: "hundred_fields", in: "GET / HTTP/1.1\r\nHost: h\r\n" + strings.Repeat("X-F: v\r\n", 100) + "\r\n"},
}

func expect(t *testing.T, ok bool, what string) {
	t.Helper()
	if !ok {
		t.Errorf("want %s", what)
	}
}

func TestParseRequestValid(t *testing.T) {
	for _, c := range validRequests {
		t.Run(c.name, func(t *testing.T) {
			p := c.p
			n, h, err := parseReq(&p, c.in)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			body := strings.TrimLeft(c.in, "\r\n")
			if want := len(c.in) - len(body) + strings.Index(body, "\r\n\r\n") + 4; c.p == (Parser{}) && n != want {
				t.Errorf("n = %d, want %d", n, want)
			}
			if c.check != nil {
				c.check(t, h)
			}
		})
	}
}

// TestParseRequestSplit is the split-feeding harness: every valid head fed
// whole, one byte at a time, and split at every index, each with and
// without the fast paths; every proper prefix must be ErrNeedMore and the
// result must equal the whole parse.
func TestParseRequestSplit(t *testing.T) {
	inputs := map[string]struct {
		p  Parser
		in string
	}{}
	for _, c := range validRequests {
		inputs[c.name] = struct {
			p  Parser
			in string
		}{c.p, c.in}
	}
	for _, name := range fixtureNames {
		inputs["fixture_"+name] = struct {
			p  Parser
			in string
		}{Parser{}, string(readFixture(t, name))}
	}
	for name, c := range inputs {
		t.Run(name, func(t *testing.T) {
			buf := []byte(c.in)
			for _, la := range []bool{true, false} {
				p := c.p
				if !la {
					p = p.strictPaths()
				}
				whole := feedRequest(t, &p, buf, nil)
				if whole.kind != 0 {
					t.Fatalf("whole: %v", whole)
				}
				for k := 1; k < whole.n; k++ {
					if r := feedRequest(t, &p, buf[:k], nil); r.kind != ErrNeedMore {
						t.Fatalf("prefix of %d bytes: %v, want ErrNeedMore", k, r)
					}
				}
				if len(buf) > 2000 {
					continue // quadratic in the test only; the fixtures cover it
				}
				for _, cuts := range headSplits(len(buf)) {
					if r := feedRequest(t, &p, buf, cuts); r != whole {
						t.Fatalf("cuts %v:\n got %v\nwant %v", cuts, r, whole)
					}
				}
			}
		})
	}
}

// TestParseRequestMovedBuffer resumes with the partial head copied to
// another buffer: the parse restarts and the slices alias the new buffer.
func TestParseRequestMovedBuffer(t *testing.T) {
	var p Parser
	in := readFixture(t, "browser")
	var h RequestHead
	h.Reset(make([]Field, 32))
	if _, err := p.ParseRequest(in[:300], &h); err != ErrNeedMore {
		t.Fatalf("err = %v", err)
	}
	moved := append([]byte(nil), in...)
	n, err := p.ParseRequest(moved, &h)
	if err != nil || n != len(in) {
		t.Fatalf("n, err = %d, %v", n, err)
	}
	moved[len("GET ")] = 'X'
	if h.Target[0] != 'X' || len(h.Fields) != 13 {
		t.Fatalf("target %q aliases the old buffer or fields doubled (%d)", h.Target, len(h.Fields))
	}
	for _, f := range h.Fields {
		if &f.Name[0] == &in[0] || string(f.Name) == "" {
			t.Fatal("bad field")
		}
	}
}
