package wire

import (
	"bufio"
	"bytes"
	"net/http"
	"net/textproto"
	"slices"
	"testing"
)

// stricter lists, by error kind, where brisk rejects a request head that
// net/http.ReadRequest accepts, each with an example and the reason. The
// differential fuzz target accepts a disagreement only when brisk's kind
// is listed here; TestDifferentialStricter proves each example.
var stricter = map[Kind]struct{ example, why string }{
	ErrTarget: {"GET /a#frag HTTP/1.1\r\nHost: h\r\n\r\n",
		"RFC 9112 §3.2: a fragment, non-ASCII bytes, or a form the method may not use (authority-form without CONNECT, '*' without OPTIONS, a scheme other than http/https, userinfo) is not a valid request-target; net/http only parses it as a URL"},
	ErrHost: {"GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
		"RFC 9112 §3.2: Host must be uri-host [\":\" port]; net/http accepts many bytes a reg-name cannot hold, and an empty Host"},
	ErrLineEnding: {"GET / HTTP/1.1\nHost: h\n\n",
		"RFC 9112 §2.2: bare LF line endings are a MAY that brisk leaves off by default (AllowBareLF)"},
	ErrVersionUnsupported: {"GET / HTTP/2.0\r\nHost: h\r\n\r\n",
		"RFC 9110 §15.6.6: a major version other than 1 on an HTTP/1 connection is answered 505 by the parser; net/http's server rejects it later"},
	ErrFraming: {"POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
		"RFC 9112 §6.1: Content-Length with Transfer-Encoding is a smuggling vector; brisk rejects where net/http lets chunked win, and rejects Transfer-Encoding in HTTP/1.0"},
	ErrTransferCoding: {"POST / HTTP/1.0\r\nTransfer-Encoding: identity\r\n\r\n",
		"RFC 9112 §6.1: brisk decodes only chunked and answers 501 to any other coding"},
	ErrObsFold: {"GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b\r\n\r\n",
		"RFC 9112 §5.2: obs-fold is rejected instead of being unfolded"},
	ErrRequestLine: {"CONNECT  HTTP/1.1\r\nHost: h:1\r\n\r\n",
		"RFC 9112 §3: exactly one SP between method, request-target and version; net/http reads an empty CONNECT target"},
	ErrHeaderTooLarge: {"", "limits: net/http.ReadRequest has none of its own (the server adds MaxHeaderBytes)"},
	ErrTooManyFields:  {"", "limits: the caller's field storage; net/http has no count limit"},
	ErrFieldName: {"GET / HTTP/1.1\r\nHost: h\r\nX : y\r\n\r\n",
		"RFC 9112 §5.1: no whitespace is allowed between the field name and colon (a smuggling vector); net/http accepts it here"},
}

// lenient lists where brisk accepts what net/http rejects, for an input
// that matches.
var lenient = []struct {
	name string
	is   func(buf []byte, h *RequestHead) bool
	why  string
}{
	{"leading_empty_line", func(buf []byte, h *RequestHead) bool { return buf[0] == '\r' || buf[0] == '\n' },
		"RFC 9112 §2.2: a server SHOULD ignore at least one empty line before the request-line"},
	{"content_length_list", func(buf []byte, h *RequestHead) bool {
		for _, f := range h.Fields {
			if textproto.CanonicalMIMEHeaderKey(string(f.Name)) == "Content-Length" && bytes.IndexByte(f.Value, ',') >= 0 {
				return true
			}
		}
		return false
	}, "RFC 9110 §8.6: a list of identical Content-Length values may be collapsed to one"},
}

// hasObsFold reports whether a line of buf starts with SP or HTAB: brisk
// rejects such a head (ErrObsFold), but when an earlier line is invalid on
// its own until unfolded (e.g. "Content-Length:" then " 0", which
// net/http joins) it reports that line's kind first.
func hasObsFold(buf []byte) bool {
	for i := 1; i < len(buf); i++ {
		if buf[i-1] == '\n' && (buf[i] == ' ' || buf[i] == '\t') {
			return true
		}
	}
	return false
}

func readNetHTTP(buf []byte) (*http.Request, error) {
	return http.ReadRequest(bufio.NewReader(bytes.NewReader(buf)))
}

func TestDifferentialStricter(t *testing.T) {
	for kind, d := range stricter {
		if d.example == "" {
			continue
		}
		var p Parser
		_, _, err := parseReq(&p, d.example)
		assertKind(t, err, kind)
		if _, err := readNetHTTP([]byte(d.example)); err != nil {
			t.Errorf("%v: net/http rejects %q too (%v); the difference is gone", kind, d.example, err)
		}
	}
	for _, in := range []string{"\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5, 5\r\n\r\n"} {
		var p Parser
		if _, _, err := parseReq(&p, in); err != nil {
			t.Errorf("%q: %v", in, err)
		}
		if _, err := readNetHTTP([]byte(in)); err == nil {
			t.Errorf("%q: net/http accepts it now; drop it from lenient", in)
		}
	}
}

// FuzzDifferentialNetHTTP parses the same bytes with ParseRequest and
// net/http.ReadRequest: they must agree on accept or reject (except for
// the listed differences) and, when both accept, on the method, target,
// field values and body length.
func FuzzDifferentialNetHTTP(f *testing.F) {
	addHeadSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ uint16) {
		if len(data) > 4096 {
			return
		}
		var p Parser
		var h RequestHead
		h.Reset(make([]Field, 128))
		n, err := p.ParseRequest(data, &h)
		if err == ErrNeedMore {
			return // net/http would report EOF; nothing to compare
		}
		req, herr := readNetHTTP(data)
		switch {
		case err != nil && herr != nil:
			return
		case err != nil:
			if _, ok := stricter[KindOf(err)]; !ok && !hasObsFold(data) {
				t.Fatalf("brisk rejects (%v), net/http accepts %q", err, data)
			}
			return
		case herr != nil:
			for _, l := range lenient {
				if l.is(data, &h) {
					return
				}
			}
			t.Fatalf("brisk accepts (n=%d), net/http rejects (%v) %q", n, herr, data)
		}
		if req.Method != string(h.Method) || req.RequestURI != string(h.Target) {
			t.Fatalf("request line: net/http %q %q, brisk %q %q", req.Method, req.RequestURI, h.Method, h.Target)
		}
		for _, fl := range h.Fields {
			key := textproto.CanonicalMIMEHeaderKey(string(fl.Name))
			if key == "Host" || key == "Transfer-Encoding" {
				continue // net/http moves them to req.Host, req.TransferEncoding
			}
			if !slices.Contains(req.Header[key], string(fl.Value)) {
				t.Fatalf("field %q: brisk %q, net/http %q", key, fl.Value, req.Header[key])
			}
		}
		switch h.Framing() {
		case FramingChunked:
			if req.ContentLength != -1 || !slices.Equal(req.TransferEncoding, []string{"chunked"}) {
				t.Fatalf("brisk chunked, net/http %d %q", req.ContentLength, req.TransferEncoding)
			}
		case FramingLength:
			if req.ContentLength != h.ContentLength {
				t.Fatalf("brisk length %d, net/http %d", h.ContentLength, req.ContentLength)
			}
		default:
			if req.ContentLength != 0 {
				t.Fatalf("brisk no body, net/http %d", req.ContentLength)
			}
		}
	})
}
