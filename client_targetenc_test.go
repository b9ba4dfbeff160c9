package brisk

import (
	"bufio"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// requestLineServer is a raw server that records the request line of
// every request and answers each with answer(i), i counting requests
// from 0 over all connections.
func requestLineServer(t *testing.T, answer func(i int) string) (string, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var lines []string
	url, _ := rawServer(t, func(_ int64, nc net.Conn) {
		br := bufio.NewReader(nc)
		for {
			line, err := br.ReadString('\n')
			if err != nil || !readHead(br) {
				return
			}
			mu.Lock()
			i := len(lines)
			lines = append(lines, line)
			mu.Unlock()
			if _, err := io.WriteString(nc, answer(i)); err != nil {
				return
			}
		}
	})
	return url, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), lines...)
	}
}

// TestClientTargetPercentEncoded: the bytes that may not appear in a
// request-target (non-ASCII, SP, and "<>\^`{|}) are sent percent-encoded
// with upper-case hex (RFC 3986 §2.1), in the path and the query, whether
// the target comes from SetURI, SetTarget or a redirect's Location; "%XX"
// escapes and the other visible bytes are sent as they are, and control
// bytes are never sent.
func TestClientTargetPercentEncoded(t *testing.T) {
	const ok = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
	cases := []struct {
		name, uri, want string
	}{
		{"utf8_path", "/caf\xc3\xa9", "/caf%C3%A9"},
		{"utf8_query", "/s?q=\xc3\xa9t\xc3\xa9", "/s?q=%C3%A9t%C3%A9"},
		{"latin1_byte", "/a\xff", "/a%FF"},
		{"space", "/a b?c d", "/a%20b?c%20d"},
		{"rfc3986_excluded", "/\"<>\\^`{|}?x=\"<>\\^`{|}", "/%22%3C%3E%5C%5E%60%7B%7C%7D?x=%22%3C%3E%5C%5E%60%7B%7C%7D"},
		{"kept_as_is", "/a-._~!$&'()*+,;=:@[]/%41%zz?b=/?%", "/a-._~!$&'()*+,;=:@[]/%41%zz?b=/?%"},
		{"query_only", "?\xc3\xa9", "/?%C3%A9"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url, lines := requestLineServer(t, func(int) string { return ok })
			var c Client
			defer c.CloseIdleConnections()
			var req Request
			var resp Response
			req.SetURI(url + tc.uri)
			if err := c.DoTimeout(&req, &resp, 2*time.Second); err != nil {
				t.Fatal(err)
			}
			hc := &HostClient{Addr: url[len("http://"):]}
			defer hc.CloseIdleConnections()
			req.SetTarget(tc.uri)
			if tc.uri[0] == '?' {
				req.SetTarget("/" + tc.uri)
			}
			if err := hc.DoTimeout(&req, &resp, 2*time.Second); err != nil {
				t.Fatal(err)
			}
			want := "GET " + tc.want + " HTTP/1.1\r\n"
			if got := lines(); len(got) != 2 || got[0] != want || got[1] != want {
				t.Fatalf("request lines %q, want 2 of %q", got, want)
			}
		})
	}
	t.Run("redirect_location", func(t *testing.T) {
		url, lines := requestLineServer(t, func(i int) string {
			if i == 0 {
				return "HTTP/1.1 302 Found\r\nLocation: /b\xc3\xa9 c?d=\xc3\xa9|\r\nContent-Length: 0\r\n\r\n"
			}
			return ok
		})
		c := &Client{ClientConfig: ClientConfig{MaxRedirects: 1}}
		defer c.CloseIdleConnections()
		var req Request
		var resp Response
		req.SetURI(url + "/a")
		if err := c.DoTimeout(&req, &resp, 2*time.Second); err != nil || resp.StatusCode() != 200 {
			t.Fatalf("%v %d", err, resp.StatusCode())
		}
		want := []string{"GET /a HTTP/1.1\r\n", "GET /b%C3%A9%20c?d=%C3%A9%7C HTTP/1.1\r\n"}
		if got := lines(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Fatalf("request lines %q, want %q", got, want)
		}
	})
	url, lines := requestLineServer(t, func(int) string { return ok })
	var c Client
	defer c.CloseIdleConnections()
	for _, ctl := range []string{"/a\x00", "/a\tb", "/a\r\nX: y", "/a\x7f", "/?q=\x1b"} {
		var req Request
		var resp Response
		req.SetURI(url + ctl)
		if err := c.DoTimeout(&req, &resp, 2*time.Second); !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("SetURI(%q): %v, want ErrInvalidRequest", ctl, err)
		}
	}
	if got := lines(); len(got) != 0 {
		t.Errorf("requests with control bytes reached the server: %q", got)
	}
}

// TestTargetAsIsClass checks the targetAsIs table against its
// definition: VCHAR but "<>\^`{|}.
func TestTargetAsIsClass(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := c >= 0x21 && c <= 0x7e && !strings.ContainsRune("\"<>\\^`{|}", rune(c))
		if got := targetAsIs[c] == 1; got != want || targetAsIs[c] > 1 {
			t.Errorf("byte %#x: as is %v, want %v", c, got, want)
		}
	}
}
