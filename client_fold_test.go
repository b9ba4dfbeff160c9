package brisk

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
	"github.com/brisk-http/brisk/wire"
)

// chunkConn is a client connection whose Reads return a scripted response
// at most k bytes at a time.
type chunkConn struct {
	*fakenet.Conn
	k int
}

func (c *chunkConn) Read(p []byte) (int, error) { return c.Conn.Read(p[:min(len(p), c.k)]) }

// scriptedClient returns a HostClient whose connections receive resp, k
// bytes per Read, then io.EOF.
func scriptedClient(resp string, k int, config func(*HostClient)) *HostClient {
	hc := &HostClient{Addr: "example.com"}
	hc.Dial = func(context.Context, string, string) (net.Conn, error) {
		return &chunkConn{Conn: fakenet.NewConn([]byte(resp), len(resp), 1), k: k}, nil
	}
	if config != nil {
		config(hc)
	}
	return hc
}

// TestClientObsFold: each obs-fold in a response head is replaced with SP
// before the fields are interpreted (RFC 9112 §5.2: "one or more SP"),
// whatever the bytes each Read returns: wire.Parser.AllowObsFold writes SP
// over the CRLF and the whitespace after it, so a value keeps the length
// it had on the wire. Whitespace before the first field line stays an
// error (RFC 9112 §2.2), as does a fold continuing Content-Length,
// Transfer-Encoding or Connection (wire interprets those fields when
// their first line ends), and the unfolded head is checked as any other.
func TestClientObsFold(t *testing.T) {
	const ok = "HTTP/1.1 200 OK\r\n"
	type field struct{ name, value string }
	accepted := []struct {
		name   string
		resp   string
		fields []field
		body   string
		closes bool // the response closes the connection
	}{
		{"one_fold", ok + "X: a\r\n b\r\nContent-Length: 0\r\n\r\n", []field{{"X", "a   b"}}, "", false},
		{"htab_fold", ok + "X: a\r\n\tb\r\nContent-Length: 0\r\n\r\n", []field{{"X", "a   b"}}, "", false},
		{"ows_around_fold", ok + "X: a \t\r\n \t b  \r\nContent-Length: 0\r\n\r\n", []field{{"X", "a \t     b"}}, "", false},
		{"three_lines", ok + "X: a\r\n b\r\n  c\r\nY: d\r\nContent-Length: 0\r\n\r\n", []field{{"X", "a   b    c"}, {"Y", "d"}}, "", false},
		{"empty_value_folded", ok + "X:\r\n b\r\nContent-Length: 0\r\n\r\n", []field{{"X", "b"}}, "", false},
		{"blank_continuation", ok + "X: a\r\n \r\nY: b\r\nContent-Length: 0\r\n\r\n", []field{{"X", "a"}, {"Y", "b"}}, "", false},
		{"body_after_folds", ok + "X: a\r\n b\r\nContent-Length: 5\r\nY: c\r\n d\r\n\r\nhello", []field{{"X", "a   b"}, {"Y", "c   d"}}, "hello", false},
		{"after_interim", "HTTP/1.1 103 Early Hints\r\nLink: </a>;\r\n rel=preload\r\n\r\n" + ok + "X: a\r\n b\r\nContent-Length: 2\r\n\r\nok", []field{{"X", "a   b"}}, "ok", false},
	}
	for _, tc := range accepted {
		t.Run(tc.name, func(t *testing.T) {
			for k := 1; k <= len(tc.resp); k++ {
				hc := scriptedClient(tc.resp, k, nil)
				var req Request
				var resp Response
				req.SetTarget("/")
				if err := hc.DoTimeout(&req, &resp, time.Second); err != nil {
					t.Fatalf("%d bytes per read: %v", k, err)
				}
				for _, f := range tc.fields {
					if got := string(resp.Header.Get(f.name)); got != f.value {
						t.Fatalf("%d bytes per read: %s = %q, want %q", k, f.name, got, f.value)
					}
				}
				if resp.StatusCode() != 200 || string(resp.Body()) != tc.body {
					t.Fatalf("%d bytes per read: %d %q, want 200 %q", k, resp.StatusCode(), resp.Body(), tc.body)
				}
				hc.mu.Lock()
				kept := len(hc.idle) == 1
				hc.mu.Unlock()
				if kept != !tc.closes {
					t.Fatalf("%d bytes per read: connection kept %v, want %v", k, kept, !tc.closes)
				}
			}
		})
	}
	rejected := []struct {
		name   string
		resp   string
		config func(*HostClient)
		want   wire.Kind
	}{
		{"space_before_first_field", ok + " X: a\r\nContent-Length: 0\r\n\r\n", nil, wire.ErrObsFold},
		{"htab_before_first_field", ok + "\tX: a\r\nX: b\r\n c\r\n\r\n", nil, wire.ErrObsFold},
		{"folded_content_length_list", ok + "Content-Length: 5\r\n , 5\r\n\r\nhello", nil, wire.ErrObsFold},
		{"folded_content_length_two_values", ok + "Content-Length: 5\r\n 6\r\n\r\nhello", nil, wire.ErrObsFold},
		{"folded_connection_close", ok + "Connection: keep-alive,\r\n close\r\nContent-Length: 0\r\n\r\n", nil, wire.ErrObsFold},
		// wire checks a framing field when its line ends: a first line
		// invalid on its own is an error, whatever follows it.
		{"content_length_continued", ok + "Content-Length:\r\n 5\r\n\r\nhello", nil, wire.ErrContentLength},
		{"transfer_coding_continued", ok + "Transfer-Encoding: gzip\r\n , chunked\r\n\r\n0\r\n\r\n", nil, wire.ErrTransferCoding},
		{"folded_chunked_not_final", ok + "Transfer-Encoding: chunked\r\n , gzip\r\n\r\n0\r\n\r\n", nil, wire.ErrObsFold},
		{"fold_then_bare_lf", ok + "X: a\r\n b\nContent-Length: 0\r\n\r\n", nil, wire.ErrLineEnding},
		{"fold_then_nul", ok + "X: a\r\n b\x00\r\n\r\n", nil, wire.ErrFieldValue},
		{"fold_in_head_over_limit", ok + "X: a\r\n b" + strings.Repeat("c", 2000) + "\r\n\r\n",
			func(hc *HostClient) { hc.MaxResponseHeaderBytes = 1024 }, wire.ErrHeaderTooLarge},
		{"folds_then_endless_head", ok + "X: a\r\n b\r\n" + strings.Repeat("Y: c\r\n", 400),
			func(hc *HostClient) { hc.MaxResponseHeaderBytes, hc.MaxResponseFields = 1024, 1000 }, wire.ErrHeaderTooLarge},
	}
	for _, tc := range rejected {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []int{1, 7, len(tc.resp)} {
				hc := scriptedClient(tc.resp, k, tc.config)
				var req Request
				var resp Response
				req.SetTarget("/")
				err := hc.DoTimeout(&req, &resp, time.Second)
				if !errors.Is(err, tc.want) {
					t.Fatalf("%d bytes per read: %v, want %v", k, err, tc.want)
				}
			}
		})
	}
}
