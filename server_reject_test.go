package brisk

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/brisk-http/brisk/wire"
)

// TestOnReject checks that every request answered with an error status
// before the Handler reaches Server.OnReject once, with the status sent,
// the error and the method and target only when they parsed; and that a
// served request does not.
func TestOnReject(t *testing.T) {
	cases := []struct {
		name, req string
		status    int
		method    string // "-" for nil
		target    string // "-" for nil
		is        error  // errors.Is target, or nil with kind
		kind      wire.Kind
	}{
		{"bad_method", "G(T / HTTP/1.1\r\nHost: x\r\n\r\n", 400, "-", "-", nil, wire.ErrMethod},
		{"bad_target_byte", "GET /a\x01 HTTP/1.1\r\nHost: x\r\n\r\n", 400, "GET", "-", nil, wire.ErrTarget},
		{"line_too_long", "GET /" + strings.Repeat("a", 100) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414, "GET", "-", nil, wire.ErrRequestLineTooLong},
		{"version_2", "GET /v HTTP/2.0\r\nHost: x\r\n\r\n", 505, "GET", "/v", nil, wire.ErrVersionUnsupported},
		{"http2_preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505, "PRI", "*", nil, wire.ErrVersionUnsupported},
		{"no_host", "GET /h HTTP/1.1\r\n\r\n", 400, "GET", "/h", nil, wire.ErrHost},
		{"fields_too_large", "GET /f HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("v", 300) + "\r\n\r\n", 431, "GET", "/f", nil, wire.ErrHeaderTooLarge},
		{"bad_path", "GET /a%5c/b\\c HTTP/1.1\r\nHost: x\r\n\r\n", 400, "GET", "/a%5c/b\\c", ErrPathByte, 0},
		{"body_too_large", "POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 65\r\n\r\n", 413, "POST", "/up", ErrBodyTooLarge, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := make(chan string, 2)
			ts := startServer(t, "inmemory", &Server{
				MaxRequestLineBytes: 64, MaxHeaderBytes: 256, MaxBodyBytes: 64,
				Handler: func(c *Ctx) { got <- "handler" },
				OnReject: func(r Rejection) {
					ok := tc.is != nil && errors.Is(r.Err, tc.is) || tc.is == nil && wire.KindOf(r.Err) == tc.kind
					got <- fmt.Sprintf("%d %s %s %v %v", r.Status, orDash(r.Method), orDash(r.Target), ok, r.RemoteAddr != nil)
				},
			})
			c := ts.connect()
			resp, _ := c.roundTrip(tc.req)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			want := fmt.Sprintf("%d %s %s true true", tc.status, tc.method, tc.target)
			c.expectClosed() // OnReject ran before the response was sent
			select {
			case g := <-got:
				if g != want {
					t.Fatalf("OnReject got %q, want %q", g, want)
				}
			default:
				t.Fatal("OnReject not called")
			}
			if len(got) != 0 {
				t.Fatalf("extra call: %q", <-got)
			}
		})
	}
	t.Run("served", func(t *testing.T) {
		calls := 0
		ts := startServer(t, "inmemory", &Server{Handler: echoPath, OnReject: func(Rejection) { calls++ }})
		c := ts.connect()
		if resp, body := c.roundTrip(get("/ok")); resp.StatusCode != 200 || body != "/ok" || calls != 0 {
			t.Fatalf("got %d %q with %d OnReject calls, want 200 \"/ok\" and none", resp.StatusCode, body, calls)
		}
	})
}

func orDash(b []byte) string {
	if b == nil {
		return "-"
	}
	return string(b)
}
