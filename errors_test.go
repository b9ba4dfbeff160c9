package brisk

import (
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/brisk-http/brisk/wire"
)

func TestErrorTableComplete(t *testing.T) {
	for k := wire.ErrNeedMore + 1; k < wire.ErrBodyTooLarge+1; k++ {
		found := false
		for _, e := range errorTable {
			found = found || e.err == error(k)
		}
		if !found {
			t.Errorf("%v missing from errorTable", k)
		}
		if st := statusForError(&wire.Error{Kind: k, Offset: 3}); st.code == 0 || !st.closeConn {
			t.Errorf("%v: %+v", k, st)
		}
	}
}

func TestErrorStatus(t *testing.T) {
	cases := []struct {
		name string
		err  error
		code int
	}{
		{"wire_kind", wire.ErrVersionUnsupported, 505},
		{"wire_error", &wire.Error{Kind: wire.ErrHeaderTooLarge, Offset: 9}, 431},
		{"body_too_large", ErrBodyTooLarge, 413},
		{"path_escape", ErrPathEscape, 400},
		{"path_byte_wrapped", fmt.Errorf("x: %w", ErrPathByte), 400},
		{"invalid_host", ErrInvalidHost, 400},
		{"multipart_parts", ErrMultipartParts, 413},
		{"multipart_too_large", ErrMultipartTooLarge, 413},
		{"not_multipart", ErrNotMultipart, 415},
		{"other", io.ErrUnexpectedEOF, 400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ErrorStatus(tc.err); got != tc.code {
				t.Fatalf("ErrorStatus(%v) = %d, want %d", tc.err, got, tc.code)
			}
		})
	}
}

func TestBadRequests(t *testing.T) {
	long := strings.Repeat("a", DefaultMaxRequestLineBytes+10)
	cases := []struct {
		name, req string
		status    int
	}{
		{"request_line", "GET /\r\nHost: x\r\n\r\n", 400},
		{"method", "G(T / HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"target", "GET a b HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"version", "GET / HTTP/x.1\r\nHost: x\r\n\r\n", 400},
		{"version_unsupported", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505},
		{"request_line_too_long", "GET /" + long + " HTTP/1.1\r\nHost: x\r\n\r\n", 414},
		{"bare_cr", "GET / HTTP/1.1\r\nHost: x\rY: z\r\n\r\n", 400},
		{"field_name", "GET / HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n", 400},
		{"space_before_colon", "GET / HTTP/1.1\r\nHost: x\r\nName : v\r\n\r\n", 400},
		{"field_value_ctl", "GET / HTTP/1.1\r\nHost: x\r\nX: a\x01b\r\n\r\n", 400},
		{"obs_fold", "GET / HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n", 400},
		{"missing_host", "GET / HTTP/1.1\r\n\r\n", 400},
		{"two_hosts", "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400},
		{"content_length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n", 400},
		{"smuggle_cl_te", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400},
		{"transfer_coding", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
		{"header_too_large", "GET / HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("v", DefaultMaxHeaderBytes) + "\r\n\r\n", 431},
		{"too_many_fields", "GET / HTTP/1.1\r\nHost: x\r\n" + strings.Repeat("X: v\r\n", DefaultMaxFields) + "\r\n", 431},
		{"chunk_size", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400},
		{"chunk_data", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n", 400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			handlerCalled := false
			ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
				handlerCalled = true
				if _, err := c.Request.Body(); err == nil {
					c.Response.SetBodyString("ok")
				}
			}})
			c := ts.connect()
			resp, body := c.roundTrip(tc.req)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d (body %q, handler called %v)", resp.StatusCode, tc.status, body, handlerCalled)
			}
			if !resp.Close {
				t.Errorf("no Connection: close")
			}
			if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if want := wire.StatusText(tc.status) + "\n"; body != want {
				t.Errorf("body %q, want %q", body, want)
			}
			c.expectClosed()
		})
	}
}

func TestHeaderLimitIndependentOfReadBuffer(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: echoPath, ReadBufferSize: 512})
	c := ts.connect()
	big := "GET /big HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("v", 20000) + "\r\n\r\n"
	resp, body := c.roundTrip(big)
	if resp.StatusCode != 200 || body != "/big" {
		t.Fatalf("got %d %q", resp.StatusCode, body)
	}
	c.expectOpen()
}

func TestConfiguredLimits(t *testing.T) {
	cases := []struct {
		name   string
		srv    func() *Server
		req    string
		status int
	}{
		{"request_line", func() *Server { return &Server{MaxRequestLineBytes: 20} }, get("/" + strings.Repeat("a", 30)), 414},
		{"header_bytes", func() *Server { return &Server{MaxHeaderBytes: 100} }, "GET / HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("v", 100) + "\r\n\r\n", 431},
		{"fields", func() *Server { return &Server{MaxFields: 2} }, "GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\n\r\n", 431},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.srv()
			s.Handler = echoPath
			ts := startServer(t, "inmemory", s)
			c := ts.connect()
			resp, _ := c.roundTrip(tc.req)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			c.expectClosed()
		})
	}
}

// TestErrorStatusTimeout: ErrorStatus agrees with what the server sends
// after a body read times out (408, RFC 9110 §15.5.9).
func TestErrorStatusTimeout(t *testing.T) {
	if got := ErrorStatus(os.ErrDeadlineExceeded); got != 408 {
		t.Errorf("ErrorStatus(os.ErrDeadlineExceeded) = %d, want 408", got)
	}
	wrapped := &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
	if got := ErrorStatus(wrapped); got != 408 {
		t.Errorf("ErrorStatus(%v) = %d, want 408", wrapped, got)
	}
}
