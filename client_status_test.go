package brisk

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
)

// TestClientStatusCodeAfterError: a client-side Response is reset when Do
// starts, and its StatusCode is 0 until a response head is received, so a
// failed Do does not report the server default 200 (nor the previous
// response's status).
func TestClientStatusCodeAfterError(t *testing.T) {
	ok := brokenServer(t, send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
	refused := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ln.Close()
		return "http://" + ln.Addr().String()
	}()
	cases := []struct {
		name       string
		url        string
		wantErr    error // nil: any error
		wantStatus int
	}{
		{"invalid_uri", "ftp://x/", ErrInvalidURI, 0},
		{"dial_refused", refused, nil, 0},
		{"closed_before_any_byte", brokenServer(t, send("")), ErrConnectionClosed, 0},
		{"silence", brokenServer(t, sendThenSilence("")), ErrTimeout, 0},
		{"malformed_head", brokenServer(t, send("garbage\r\n\r\n")), nil, 0},
		{"head_then_broken_body", brokenServer(t, send("HTTP/1.1 503 Busy\r\nContent-Length: 9\r\n\r\nabc")), ErrConnectionClosed, 503},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, stream := range []bool{false, true} {
				var c Client
				var req Request
				var resp Response
				req.SetURI(ok + "/")
				if err := c.Do(&req, &resp); err != nil || resp.StatusCode() != 200 {
					t.Fatalf("warm-up: %v, status %d", err, resp.StatusCode())
				}
				req.SetURI(tc.url + "/")
				var err error
				if stream {
					ctx, cancel := context.WithTimeout(context.Background(), brokenDeadline)
					var s *BodyStream
					if s, err = c.DoStream(ctx, &req, &resp); err == nil {
						_, err = io.ReadAll(s)
						s.Close()
					}
					cancel()
				} else {
					err = c.DoTimeout(&req, &resp, brokenDeadline)
				}
				if err == nil || tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
					t.Fatalf("stream=%v: err = %v, want %v", stream, err, tc.wantErr)
				}
				if got := resp.StatusCode(); got != tc.wantStatus {
					t.Errorf("stream=%v: StatusCode() = %d after %v, want %d", stream, got, err, tc.wantStatus)
				}
				if tc.wantStatus == 0 && (len(resp.Body()) != 0 || resp.Header.Len() != 0) {
					t.Errorf("stream=%v: previous response kept: body %q, %d fields", stream, resp.Body(), resp.Header.Len())
				}
				c.CloseIdleConnections()
			}
		})
	}
}

// TestResponseStatusDefaultServerSide: outside the client, the status
// code still defaults to 200, also after Reset.
func TestResponseStatusDefaultServerSide(t *testing.T) {
	var r Response
	if got := r.StatusCode(); got != 200 {
		t.Fatalf("zero Response: StatusCode() = %d, want 200", got)
	}
	r.SetStatusCode(404)
	r.Reset()
	if got := r.StatusCode(); got != 200 {
		t.Fatalf("after Reset: StatusCode() = %d, want 200", got)
	}
}
