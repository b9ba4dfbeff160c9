package brisk

import (
	"strings"
	"testing"
)

// TestTrailerLimit checks that the trailer section of a chunked request
// body is bounded by Server.MaxHeaderBytes (16 KiB here), not by the wire
// package's 8 KiB default: a 12 KiB section is received, a 20 KiB one is
// answered 431 and closes the connection.
func TestTrailerLimit(t *testing.T) {
	const maxHeader = 16 << 10
	tests := []struct {
		name   string
		size   int // bytes of the X-T trailer value
		status int
		close  bool
	}{
		{"over_wire_default", 12 << 10, 200, false},
		{"over_max_header_bytes", 20 << 10, 431, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forTransports(t, func(t *testing.T, tr string) {
				ts := startServer(t, tr, &Server{Handler: echoBody, MaxHeaderBytes: maxHeader})
				c := ts.connect()
				value := strings.Repeat("v", tt.size)
				resp, body := c.roundTrip("POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
					"3\r\nabc\r\n0\r\nX-T: " + value + "\r\n\r\n")
				if resp.StatusCode != tt.status || resp.Close != tt.close {
					t.Fatalf("status %d, close %v; want %d, close %v", resp.StatusCode, resp.Close, tt.status, tt.close)
				}
				if tt.status == 200 && (body != "abc" || resp.Header.Get("X-Trailer") != value) {
					t.Errorf("body %q, trailer %d bytes; want \"abc\", %d bytes", body, len(resp.Header.Get("X-Trailer")), tt.size)
				}
				if tt.close {
					c.expectClosed()
				} else {
					c.expectOpen()
				}
			})
		})
	}
}
