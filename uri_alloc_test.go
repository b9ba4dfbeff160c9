//go:build !race

package brisk

import (
	"strings"
	"testing"

	"github.com/brisk-http/brisk/wire"
)

// TestZeroAllocs holds the allocation budget of the request-side parsers:
// none, once scratch buffers have grown.
func TestURIZeroAllocs(t *testing.T) {
	target := []byte("/cookies/catalog/../catalog/item.php?id=81273&sort=price&q=caf%C3%A9+au+lait")
	cookie := []byte("session=4f1c2a9e7b3d8e60; theme=dark; cart=3x81273.1x99120; _ga=GA1.2.1187302112.1732950000; consent=analytics%3Dno")
	semis := []byte(strings.Repeat(";", 45))
	buf := make([]byte, 0, 256)
	var args Args
	var u URI
	method := []byte("GET")
	tests := []struct {
		name string
		f    func()
	}{
		{"uri_parse_decode_path", func() {
			if u.Parse(method, target) != nil {
				t.Fatal("parse")
			}
			if _, err := DecodePath(buf[:0], u.RawPath); err != nil {
				t.Fatal(err)
			}
		}},
		{"args_peek", func() {
			args.Reset(u.Query)
			if args.Peek("id") == nil || args.Peek("q") == nil || args.Peek("missing") != nil {
				t.Fatal("peek")
			}
		}},
		{"args_iterate", func() {
			args.Reset(u.Query)
			for range args.All() {
			}
			for range args.Values("q") {
			}
		}},
		{"cookie_value", func() {
			if _, ok := CookieValue(cookie, "consent"); !ok {
				t.Fatal("cookie")
			}
			if _, ok := CookieValue(semis, "consent"); ok {
				t.Fatal("semicolons")
			}
		}},
		{"cookie_pairs", func() {
			for range CookiePairs(cookie) {
			}
		}},
		{"valid_host", func() {
			if !wire.ValidHost([]byte("[2001:db8::1]:8443"), false) {
				t.Fatal("host")
			}
		}},
		{"set_cookie_append", func() {
			c := SetCookie{Name: "sid", Value: "abc", Path: "/", MaxAge: 60, Secure: true, HttpOnly: true, SameSite: SameSiteLax}
			if _, err := c.AppendTo(buf[:0]); err != nil {
				t.Fatal(err)
			}
		}},
	}
	u.Parse(method, target)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(100, tt.f); n != 0 {
				t.Fatalf("%v allocations per run, want 0", n)
			}
		})
	}
}
