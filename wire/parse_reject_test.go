package wire

import (
	"strings"
	"testing"
)

// rejectRequests lists every reject rule with the exact kind it must give.
var rejectRequests = []struct {
	name, in string
	want     Kind
	p        Parser
}{
	// Request line (RFC 9112 §3).
	{"method_paren", "G(ET / HTTP/1.1\r\nHost: h\r\n\r\n", ErrMethod, Parser{}},
	{"method_nul", "GE\x00T / HTTP/1.1\r\nHost: h\r\n\r\n", ErrMethod, Parser{}},
	{"method_empty", " / HTTP/1.1\r\nHost: h\r\n\r\n", ErrMethod, Parser{}},
	{"method_tab_separator", "GET\t/\tHTTP/1.1\r\nHost: h\r\n\r\n", ErrMethod, Parser{}},
	{"method_only", "GET\r\n\r\n", ErrMethod, Parser{}},
	{"double_space", "GET  / HTTP/1.1\r\nHost: h\r\n\r\n", ErrRequestLine, Parser{}},
	{"double_space_before_version", "GET /  HTTP/1.1\r\nHost: h\r\n\r\n", ErrVersion, Parser{}},
	{"trailing_space", "GET / HTTP/1.1 \r\nHost: h\r\n\r\n", ErrRequestLine, Parser{}},
	{"missing_target", "GET HTTP/1.1\r\nHost: h\r\n\r\n", ErrRequestLine, Parser{}},
	{"missing_version", "GET /\r\nHost: h\r\n\r\n", ErrRequestLine, Parser{}},
	{"target_space", "GET /a b HTTP/1.1\r\nHost: h\r\n\r\n", ErrVersion, Parser{}},
	{"target_ctl", "GET /a\x01b HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_del", "GET /a\x7fb HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_obs_text", "GET /caf\xc3\xa9 HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_bad_pct", "GET /%0 HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_bad_pct_hex", "GET /a%2x HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_bad_pct_before_query", "GET /a%zz?d=1 HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_bad_pct_last", "GET /a% HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_bad_pct_absolute_path", "GET http://h/a%z?q HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_fragment", "GET /page#frag HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_relative", "GET page HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_authority_get", "GET example.com:80 HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_asterisk_get", "GET * HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_absolute_ftp", "GET ftp://example.com/ HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_absolute_no_authority", "GET http:///x HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"target_absolute_userinfo", "GET http://user@example.com/ HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"connect_origin", "CONNECT / HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"connect_no_port", "CONNECT example.com HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"connect_bad_port", "CONNECT example.com:44x HTTP/1.1\r\nHost: h\r\n\r\n", ErrTarget, Parser{}},
	{"version_lowercase", "GET / http/1.1\r\nHost: h\r\n\r\n", ErrVersion, Parser{}},
	{"version_two_digit_minor", "GET / HTTP/1.10\r\nHost: h\r\n\r\n", ErrVersion, Parser{}},
	{"version_two_digit_major", "GET / HTTP/11.1\r\nHost: h\r\n\r\n", ErrVersion, Parser{}},
	{"version_short", "GET / HTTP/1\r\nHost: h\r\n\r\n", ErrVersion, Parser{}},
	{"version_http2", "GET / HTTP/2.0\r\nHost: h\r\n\r\n", ErrVersionUnsupported, Parser{}},
	{"version_http3", "GET / HTTP/3.0\r\nHost: h\r\n\r\n", ErrVersionUnsupported, Parser{}},
	{"version_http09", "GET / HTTP/0.9\r\n\r\n", ErrVersionUnsupported, Parser{}},
	{"three_leading_crlf", "\r\n\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n", ErrRequestLine, Parser{}},
	{"line_too_long", "GET /" + strings.Repeat("t", 16<<10) + " HTTP/1.1\r\nHost: h\r\n\r\n", ErrRequestLineTooLong, Parser{}},
	{"line_too_long_by_one", "GET /234 HTTP/1.1\r\nHost: h\r\n\r\n", ErrRequestLineTooLong, Parser{MaxRequestLineBytes: 16}},
	{"line_too_long_bare_lf", "GET /23 HTTP/1.1\nHost: h\n\n", ErrRequestLineTooLong, Parser{MaxRequestLineBytes: 15, AllowBareLF: true}},

	// Line endings (RFC 9112 §2.2).
	{"bare_cr_request_line", "GET / HTTP/1.1\rHost: h\r\n\r\n", ErrLineEnding, Parser{}},
	{"bare_cr_value", "GET / HTTP/1.1\r\nHost: h\r\nX-A: a\rb\r\n\r\n", ErrLineEnding, Parser{}},
	{"bare_cr_hides_te", "POST / HTTP/1.1\r\nHost: h\r\nX-A: a\rTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nhello", ErrLineEnding, Parser{}},
	{"bare_cr_name", "GET / HTTP/1.1\r\nHost: h\r\nX\rA: b\r\n\r\n", ErrLineEnding, Parser{}},
	{"bare_cr_target", "GET /a\rSet-Cookie: x=1 HTTP/1.1\r\nHost: h\r\n\r\n", ErrLineEnding, Parser{}},
	{"crlf_cr_x", "GET / HTTP/1.1\r\nHost: h\r\n\rXGET /evil HTTP/1.1\r\n\r\n", ErrLineEnding, Parser{}},
	{"leading_cr_x", "\rGET / HTTP/1.1\r\nHost: h\r\n\r\n", ErrLineEnding, Parser{}},
	{"bare_lf_everywhere", "GET / HTTP/1.1\nHost: h\n\n", ErrLineEnding, Parser{}},
	{"bare_lf_field", "GET / HTTP/1.1\r\nHost: h\nX-A: b\r\n\r\n", ErrLineEnding, Parser{}},
	{"bare_lf_end", "GET / HTTP/1.1\r\nHost: h\r\n\n", ErrLineEnding, Parser{}},
	{"bare_lf_leading", "\nGET / HTTP/1.1\r\nHost: h\r\n\r\n", ErrLineEnding, Parser{}},
	{"lf_in_target", "GET /a\nSet-Cookie: x=1 HTTP/1.1\r\nHost: h\r\n\r\n", ErrRequestLine, Parser{}},

	// Field lines (RFC 9112 §5, RFC 9110 §5.5).
	{"space_before_colon", "GET / HTTP/1.1\r\nHost: h\r\nX-A : b\r\n\r\n", ErrFieldName, Parser{}},
	{"tab_before_colon", "GET / HTTP/1.1\r\nHost: h\r\nX-A\t: b\r\n\r\n", ErrFieldName, Parser{}},
	{"cl_space_before_colon", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length : 5\r\n\r\nhello", ErrFieldName, Parser{}},
	{"te_space_before_colon", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding : chunked\r\n\r\n", ErrFieldName, Parser{}},
	{"name_space", "GET / HTTP/1.1\r\nHost: h\r\nA B: c\r\n\r\n", ErrFieldName, Parser{}},
	{"name_empty", "GET / HTTP/1.1\r\nHost: h\r\n: x\r\n\r\n", ErrFieldName, Parser{}},
	{"name_nul", "GET / HTTP/1.1\r\nHost: h\r\nX\x00Y: z\r\n\r\n", ErrFieldName, Parser{}},
	{"name_obs_text", "GET / HTTP/1.1\r\nHost: h\r\nX\x85Y: z\r\n\r\n", ErrFieldName, Parser{}},
	{"name_slash", "GET / HTTP/1.1\r\nHost: h\r\nX/Y: z\r\n\r\n", ErrFieldName, Parser{}},
	{"no_colon", "GET / HTTP/1.1\r\nHost: h\r\nNoColonHere\r\n\r\n", ErrFieldName, Parser{}},
	{"obs_fold", "GET / HTTP/1.1\r\nHost: h\r\nX-Folded: first\r\n second\r\n\r\n", ErrObsFold, Parser{}},
	{"obs_fold_tab", "GET / HTTP/1.1\r\nHost: h\r\nX-Folded: first\r\n\tsecond\r\n\r\n", ErrObsFold, Parser{}},
	// The empty Transfer-Encoding line is complete, and invalid, first.
	{"obs_fold_te", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding:\r\n chunked\r\n\r\n", ErrFraming, Parser{}},
	{"obs_fold_te_value", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n ,chunked\r\n\r\n", ErrObsFold, Parser{}},
	{"first_line_space", "GET / HTTP/1.1\r\n Host: h\r\n\r\n", ErrObsFold, Parser{}},
	{"first_line_tab", "GET / HTTP/1.1\r\n\tX-Hidden: 1\r\nHost: h\r\n\r\n", ErrObsFold, Parser{}},
	{"value_nul", "GET / HTTP/1.1\r\nHost: h\r\nX-A: a\x00b\r\n\r\n", ErrFieldValue, Parser{}},
	{"value_soh", "GET / HTTP/1.1\r\nHost: h\r\nX-A: a\x01b\r\n\r\n", ErrFieldValue, Parser{}},
	{"value_del", "GET / HTTP/1.1\r\nHost: h\r\nX-A: a\x7fb\r\n\r\n", ErrFieldValue, Parser{}},
	{"value_vtab", "GET / HTTP/1.1\r\nHost: h\r\nX-A: \x0bb\r\n\r\n", ErrFieldValue, Parser{}},
	{"value_nul_after_8", "GET / HTTP/1.1\r\nHost: h\r\nX-A: \t12345678\t9\x00\r\n\r\n", ErrFieldValue, Parser{}},

	// Limits.
	{"head_too_large", "GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + strings.Repeat("b", 70<<10) + "\r\n\r\n", ErrHeaderTooLarge, Parser{}},
	{"head_too_large_by_one", "GET / HTTP/1.1\r\nHost: h\r\n\r\n", ErrHeaderTooLarge, Parser{MaxHeaderBytes: 26}},
	{"too_many_fields", "GET / HTTP/1.1\r\nHost: h\r\n" + strings.Repeat("X: y\r\n", 128) + "\r\n", ErrTooManyFields, Parser{}},

	// Host (RFC 9112 §3.2).
	{"host_missing", "GET / HTTP/1.1\r\n\r\n", ErrHost, Parser{}},
	{"host_port_over_65535", "GET / HTTP/1.1\r\nHost: x:99999\r\n\r\n", ErrHost, Parser{}},
	{"target_port_over_65535", "GET http://x:65536/ HTTP/1.1\r\nHost: x\r\n\r\n", ErrTarget, Parser{}},
	{"host_missing_absolute", "GET http://example.com/ HTTP/1.1\r\n\r\n", ErrHost, Parser{}},
	{"host_repeated_same", "GET / HTTP/1.1\r\nHost: h\r\nHost: h\r\n\r\n", ErrHost, Parser{}},
	{"host_repeated_differ", "GET / HTTP/1.1\r\nHost: h\r\nhost: i\r\n\r\n", ErrHost, Parser{}},
	{"host_space", "GET / HTTP/1.1\r\nHost: exa mple.com\r\n\r\n", ErrHost, Parser{}},
	{"host_slash", "GET / HTTP/1.1\r\nHost: example.com/evil\r\n\r\n", ErrHost, Parser{}},
	{"host_list", "GET / HTTP/1.1\r\nHost: a.example, b.example\r\n\r\n", ErrHost, Parser{}},
	{"host_bad_port", "GET / HTTP/1.1\r\nHost: example.com:80a\r\n\r\n", ErrHost, Parser{}},
	{"host_empty_port", "GET / HTTP/1.1\r\nHost: example.com:\r\n\r\n", ErrHost, Parser{}},
	{"host_obs_text", "GET / HTTP/1.1\r\nHost: ex\xffample.com\r\n\r\n", ErrHost, Parser{}},
	{"host_userinfo", "GET / HTTP/1.1\r\nHost: u@example.com\r\n\r\n", ErrHost, Parser{}},
	{"host_bad_pct", "GET / HTTP/1.1\r\nHost: ex%4gample.com\r\n\r\n", ErrHost, Parser{}},
	{"host_ipv6_unclosed", "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", ErrHost, Parser{}},
	{"host_empty", "GET / HTTP/1.1\r\nHost:\r\n\r\n", ErrHost, Parser{}},
	{"host_empty_absolute", "GET http://a.example/ HTTP/1.1\r\nHost:\r\n\r\n", ErrHost, Parser{AllowEmptyHost: true}},

	// Content-Length (RFC 9112 §6.3).
	{"cl_repeated_differ", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", ErrContentLength, Parser{}},
	{"cl_repeated_same_value_other_bytes", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 05\r\n\r\nhello", ErrContentLength, Parser{}},
	{"cl_list_same_value_other_bytes", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 05, 5\r\n\r\nhello", ErrContentLength, Parser{}},
	{"cl_list_differ", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5, 6\r\n\r\nhello!", ErrContentLength, Parser{}},
	{"cl_list_empty_element", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5,\r\n\r\nhello", ErrContentLength, Parser{}},
	{"cl_plus", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +5\r\n\r\nhello", ErrContentLength, Parser{}},
	{"cl_minus", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -5\r\n\r\nhello", ErrContentLength, Parser{}},
	{"cl_hex", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0x5\r\n\r\nhello", ErrContentLength, Parser{}},
	{"cl_empty", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \r\n\r\nhello", ErrContentLength, Parser{}},
	{"cl_space_inside", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1 0\r\n\r\nhello", ErrContentLength, Parser{}},
	{"cl_letter_suffix", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5x\r\n\r\nhello", ErrContentLength, Parser{}},
	{"cl_overflow_int64", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 9223372036854775808\r\n\r\n", ErrContentLength, Parser{}},
	{"cl_overflow_wrap", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 18446744073709551621\r\n\r\n", ErrContentLength, Parser{}},

	// Transfer-Encoding (RFC 9112 §6.1).
	{"te_cl_both", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 50\r\nTransfer-Encoding: chunked\r\n\r\n", ErrFraming, Parser{}},
	{"te_cl_both_te_first", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", ErrFraming, Parser{}},
	{"te_http10", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", ErrFraming, Parser{}},
	{"te_chunked_twice", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", ErrFraming, Parser{}},
	{"te_two_lines", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", ErrFraming, Parser{}},
	{"te_chunked_not_final", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", ErrFraming, Parser{}},
	{"te_chunked_then_gzip_line", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n", ErrFraming, Parser{}},
	{"te_leading_comma", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: , chunked\r\n\r\n", ErrFraming, Parser{}},
	{"te_trailing_comma", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked,\r\n\r\n", ErrFraming, Parser{}},
	{"te_empty", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding:\r\n\r\n", ErrFraming, Parser{}},
	{"te_quoted", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: \"chunked\"\r\n\r\n", ErrFraming, Parser{}},
	{"te_parameter", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked;x=1\r\n\r\n", ErrFraming, Parser{}},
	{"te_0xff_prefix", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: \xffchunked\r\n\r\n", ErrFraming, Parser{}},
	{"te_vtab_prefix", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: \x0bchunked\r\n\r\n", ErrFieldValue, Parser{}},
	{"te_nul_inside", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chun\x00ked\r\n\r\n", ErrFieldValue, Parser{}},
	{"te_xchunked", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: xchunked\r\n\r\n", ErrTransferCoding, Parser{}},
	{"te_gzip", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", ErrTransferCoding, Parser{}},
	{"te_gzip_chunked", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", ErrTransferCoding, Parser{}},
	{"te_unknown_chunked", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: x-private, chunked\r\n\r\n", ErrTransferCoding, Parser{}},
	{"te_identity", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: identity\r\nContent-Length: 5\r\n\r\nhello", ErrTransferCoding, Parser{}},
}

func TestParseRequestReject(t *testing.T) {
	for _, c := range rejectRequests {
		t.Run(c.name, func(t *testing.T) {
			p := c.p
			_, _, err := parseReq(&p, c.in)
			assertKind(t, err, c.want)
			p = p.strictPaths()
			_, _, err = parseReq(&p, c.in)
			assertKind(t, err, c.want)
		})
	}
}

// TestParseRequestRejectSplit feeds every invalid head byte by byte and
// split at every index: it must be rejected with the same kind, and no
// later than the whole parse needs.
func TestParseRequestRejectSplit(t *testing.T) {
	for _, c := range rejectRequests {
		if len(c.in) > 2000 {
			continue
		}
		t.Run(c.name, func(t *testing.T) { assertSplitReject(t, c.p, c.in, c.want) })
	}
}

// assertSplitReject feeds in to p split at every cut of headSplits and
// asserts that every split is rejected with kind want.
func assertSplitReject(t *testing.T, p Parser, in string, want Kind) {
	t.Helper()
	buf := []byte(in)
	for _, cuts := range headSplits(len(buf)) {
		if r := feedRequest(t, &p, buf, cuts); r.kind != want {
			t.Fatalf("cuts %v: %v, want %v", cuts, r, want)
		}
	}
}

// TestParseRequestEarlyReject checks errors reported before the head (or
// even the line) is complete, so a server can answer 400 to a client that
// never sends the final CRLF.
func TestParseRequestEarlyReject(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     Kind
		p        Parser
	}{
		{"bare_cr_then_byte", "GET / HTTP/1.1\rH", ErrLineEnding, Parser{}},
		{"bare_cr_field", "GET / HTTP/1.1\r\nHost: a\rb", ErrLineEnding, Parser{}},
		{"bare_lf_request_line", "GET / HTTP/1.1\nHost: h\n", ErrLineEnding, Parser{}},
		{"method_byte", "G(", ErrMethod, Parser{}},
		{"obs_fold", "GET / HTTP/1.1\r\nHost: h\r\n x", ErrObsFold, Parser{}},
		{"field_name", "GET / HTTP/1.1\r\nHost: h\r\nA B", ErrFieldName, Parser{}},
		{"line_too_long_partial", "GET /" + strings.Repeat("a", 20), ErrRequestLineTooLong, Parser{MaxRequestLineBytes: 16}},
		{"head_too_large_partial", "GET / HTTP/1.1\r\nX: " + strings.Repeat("a", 20), ErrHeaderTooLarge, Parser{MaxHeaderBytes: 32}},
	} {
		t.Run(c.name, func(t *testing.T) { assertSplitReject(t, c.p, c.in, c.want) })
	}
}

// TestParseRequestErrorOffset checks Offset for a few kinds.
func TestParseRequestErrorOffset(t *testing.T) {
	for _, c := range []struct {
		in  string
		off int
	}{
		{"GE\x00T / HTTP/1.1\r\n\r\n", 2},
		{"GET / HTTP/1.1\rHost: h\r\n\r\n", 14},
		{"GET / HTTP/1.1\r\nHost: h\r\nX-A: a\x7fb\r\n\r\n", 31},
		{"GET / HTTP/1.1\r\nHost: h\r\nX-A : b\r\n\r\n", 28},
	} {
		var p Parser
		_, _, err := parseReq(&p, c.in)
		if e, ok := err.(*Error); !ok || e.Offset != c.off {
			t.Errorf("%q: err = %v, want offset %d", c.in, err, c.off)
		}
	}
}
