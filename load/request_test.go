package load

import (
	"net/url"
	"testing"
)

// TestEncodeRequestBytes checks the exact request encoded for each
// version, method and body combination.
func TestEncodeRequestBytes(t *testing.T) {
	u, err := url.Parse("http://example.test:8080/p?q=1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, method string
		c            Config
		want         string
		keepAlive    bool
	}{
		{"get_http11", "GET", Config{}, "GET /p?q=1 HTTP/1.1\r\nHost: example.test:8080\r\n\r\n", false},
		{"get_http10", "GET", Config{HTTP10: true}, "GET /p?q=1 HTTP/1.0\r\nHost: example.test:8080\r\n\r\n", false},
		{"http10_keep_alive", "HEAD", Config{HTTP10: true, Header: []string{"Connection: keep-alive"}},
			"HEAD /p?q=1 HTTP/1.0\r\nHost: example.test:8080\r\nConnection: keep-alive\r\n\r\n", true},
		{"post_http10_body", "POST", Config{HTTP10: true, Body: []byte("hi"), Header: []string{"Host: h"}},
			"POST /p?q=1 HTTP/1.0\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi", false},
		{"put_empty_body", "PUT", Config{}, "PUT /p?q=1 HTTP/1.1\r\nHost: example.test:8080\r\nContent-Length: 0\r\n\r\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, keepAlive, err := encodeRequest(tc.method, u.RequestURI(), u.Host, tc.c, -1)
			if err != nil || string(got) != tc.want || keepAlive != tc.keepAlive {
				t.Errorf("encodeRequest = %q, %v, %v; want %q, %v, nil", got, keepAlive, err, tc.want, tc.keepAlive)
			}
		})
	}
}
