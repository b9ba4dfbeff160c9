package wire

import (
	"strings"
	"testing"
)

var validResponses = []struct {
	name, in string
	check    func(t *testing.T, h *ResponseHead)
}{
	{"200_ok", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", func(t *testing.T, h *ResponseHead) {
		expect(t, h.StatusCode == 200 && string(h.Reason) == "OK" && h.Minor == 1 && h.Framing(false) == FramingLength, "200 OK")
	}},
	{"404_chunked", "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n", func(t *testing.T, h *ResponseHead) {
		expect(t, h.StatusCode == 404 && string(h.Reason) == "Not Found" && h.Framing(false) == FramingChunked, "404 chunked")
	}},
	{"no_reason", "HTTP/1.1 200\r\n\r\n", func(t *testing.T, h *ResponseHead) {
		expect(t, h.StatusCode == 200 && len(h.Reason) == 0 && h.Framing(false) == FramingClose, "empty reason, close-delimited")
	}},
	{"empty_reason", "HTTP/1.1 204 \r\n\r\n", func(t *testing.T, h *ResponseHead) {
		expect(t, h.StatusCode == 204 && len(h.Reason) == 0 && h.Framing(false) == FramingNone, "204")
	}},
	{"reason_tab_obs_text", "HTTP/1.0 500 Oops\t\xff\r\nConnection: close\r\n\r\n", func(t *testing.T, h *ResponseHead) {
		expect(t, h.Minor == 0 && string(h.Reason) == "Oops\t\xff" && h.ConnectionClose, "reason kept")
	}},
	{"head_response", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", func(t *testing.T, h *ResponseHead) {
		expect(t, h.Framing(true) == FramingNone, "no body for HEAD")
	}},
	{"1xx", "HTTP/1.1 100 Continue\r\n\r\n", func(t *testing.T, h *ResponseHead) {
		expect(t, h.StatusCode == 100 && h.Framing(false) == FramingNone, "100")
	}},
	{"host_not_checked", "HTTP/1.1 200 OK\r\nHost: a b\r\nHost: c\r\n\r\n", nil},
	{"599", "HTTP/1.1 599 Whatever\r\n\r\n", nil},
}

func TestParseResponseValid(t *testing.T) {
	for _, c := range validResponses {
		t.Run(c.name, func(t *testing.T) {
			var p Parser
			n, h, err := parseResp(&p, c.in)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if want := strings.Index(c.in, "\r\n\r\n") + 4; n != want {
				t.Errorf("n = %d, want %d", n, want)
			}
			if c.check != nil {
				c.check(t, h)
			}
			buf := []byte(c.in)
			for _, la := range []bool{true, false} {
				p := p
				if !la {
					p = p.strictPaths()
				}
				whole := feedResponse(t, &p, buf, nil)
				for k := 1; k < n; k++ {
					if r := feedResponse(t, &p, buf[:k], nil); r.kind != ErrNeedMore {
						t.Fatalf("prefix of %d bytes: %v", k, r)
					}
				}
				for _, cuts := range headSplits(len(buf)) {
					if r := feedResponse(t, &p, buf, cuts); r != whole {
						t.Fatalf("cuts %v:\n got %v\nwant %v", cuts, r, whole)
					}
				}
			}
		})
	}
}

func TestParseResponseReject(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     Kind
	}{
		{"status_four_digits", "HTTP/1.1 2000 OK\r\n\r\n", ErrStatusCode},
		{"status_two_digits", "HTTP/1.1 20 OK\r\n\r\n", ErrStatusCode},
		{"status_leading_zero", "HTTP/1.1 099 OK\r\n\r\n", ErrStatusCode},
		{"status_600", "HTTP/1.1 600 OK\r\n\r\n", ErrStatusCode},
		{"status_999", "HTTP/1.1 999 OK\r\n\r\n", ErrStatusCode},
		{"status_letters", "HTTP/1.1 2x0 OK\r\n\r\n", ErrStatusCode},
		{"status_missing", "HTTP/1.1 \r\n\r\n", ErrStatusCode},
		{"status_no_space", "HTTP/1.1 200OK\r\n\r\n", ErrStatusLine},
		{"version_lowercase", "http/1.1 200 OK\r\n\r\n", ErrStatusLine},
		{"version_missing_space", "HTTP/1.1\r\n\r\n", ErrStatusLine},
		{"version_two_spaces", "HTTP/1.1  200 OK\r\n\r\n", ErrStatusCode},
		{"version_http2", "HTTP/2.0 200 OK\r\n\r\n", ErrVersionUnsupported},
		{"reason_ctl", "HTTP/1.1 200 O\x01K\r\n\r\n", ErrStatusLine},
		{"reason_bare_cr", "HTTP/1.1 200 O\rK\r\n\r\n", ErrLineEnding},
		{"bare_lf", "HTTP/1.1 200 OK\n\n", ErrLineEnding},
		{"cl_te_both", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", ErrFraming},
		{"cl_differ", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", ErrContentLength},
		{"te_http10", "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", ErrFraming},
		{"te_gzip", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", ErrTransferCoding},
		{"obs_fold", "HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n", ErrObsFold},
		{"field_value_nul", "HTTP/1.1 200 OK\r\nX: a\x00\r\n\r\n", ErrFieldValue},
		{"too_large", "HTTP/1.1 200 OK\r\nX: " + strings.Repeat("a", 70<<10) + "\r\n\r\n", ErrHeaderTooLarge},
	} {
		t.Run(c.name, func(t *testing.T) {
			var p Parser
			_, _, err := parseResp(&p, c.in)
			assertKind(t, err, c.want)
			if len(c.in) > 2000 {
				return
			}
			buf := []byte(c.in)
			for _, cuts := range headSplits(len(buf)) {
				if r := feedResponse(t, &p, buf, cuts); r.kind != c.want {
					t.Fatalf("cuts %v: %v, want %v", cuts, r, c.want)
				}
			}
		})
	}
}
