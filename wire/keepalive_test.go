package wire

import "testing"

func TestResponseKeepAliveAndInterim(t *testing.T) {
	cases := []struct {
		name, in      string
		keep, interim bool
	}{
		{"http11", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", true, false},
		{"http11_close", "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", false, false},
		{"http10", "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", false, false},
		{"http10_keep_alive", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", true, false},
		{"continue", "HTTP/1.1 100 Continue\r\n\r\n", true, true},
		{"early_hints", "HTTP/1.1 103 Early Hints\r\n\r\n", true, true},
		{"switching_protocols_is_final", "HTTP/1.1 101 Switching Protocols\r\n\r\n", true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var p Parser
			var h ResponseHead
			h.Reset(make([]Field, 8))
			if _, err := p.ParseResponse([]byte(tc.in), &h); err != nil {
				t.Fatal(err)
			}
			if h.KeepAlive() != tc.keep || h.Interim() != tc.interim {
				t.Fatalf("KeepAlive %v Interim %v, want %v %v", h.KeepAlive(), h.Interim(), tc.keep, tc.interim)
			}
		})
	}
}
