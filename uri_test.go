package brisk

import (
	"errors"
	"testing"

	"github.com/brisk-http/brisk/wire"
)

func TestURIParse(t *testing.T) {
	tests := []struct {
		name, method, target string
		form                 wire.TargetForm
		scheme, authority    string
		path, query          string
		hasQuery             bool
		err                  error
	}{
		{name: "origin", method: "GET", target: "/a/b?x=1&y", form: wire.OriginForm, path: "/a/b", query: "x=1&y", hasQuery: true},
		{name: "origin_no_query", method: "GET", target: "/a", form: wire.OriginForm, path: "/a"},
		{name: "origin_empty_query", method: "GET", target: "/a?", form: wire.OriginForm, path: "/a", hasQuery: true},
		{name: "origin_question_in_query", method: "GET", target: "/a?b?c", form: wire.OriginForm, path: "/a", query: "b?c", hasQuery: true},
		{name: "absolute", method: "GET", target: "http://example.com:8080/a?q", form: wire.AbsoluteForm, scheme: "http", authority: "example.com:8080", path: "/a", query: "q", hasQuery: true},
		{name: "absolute_https_upper", method: "POST", target: "HTTPS://Example.COM/", form: wire.AbsoluteForm, scheme: "HTTPS", authority: "Example.COM", path: "/"},
		{name: "absolute_empty_path", method: "GET", target: "http://example.com", form: wire.AbsoluteForm, scheme: "http", authority: "example.com"},
		{name: "absolute_query_no_path", method: "GET", target: "http://example.com?x", form: wire.AbsoluteForm, scheme: "http", authority: "example.com", query: "x", hasQuery: true},
		{name: "absolute_ipv6", method: "GET", target: "http://[::1]:80/x", form: wire.AbsoluteForm, scheme: "http", authority: "[::1]:80", path: "/x"},
		{name: "absolute_ftp", method: "GET", target: "ftp://example.com/", err: ErrTargetScheme},
		{name: "absolute_no_slashes", method: "GET", target: "http:example.com/", err: ErrTargetScheme},
		{name: "absolute_userinfo", method: "GET", target: "http://user:pw@example.com/", err: ErrTargetUserinfo},
		{name: "absolute_empty_host", method: "GET", target: "http:///etc/passwd", err: ErrInvalidHost},
		{name: "absolute_bad_port", method: "GET", target: "http://example.com:99999/", err: ErrInvalidHost},
		{name: "absolute_bad_host_byte", method: "GET", target: "http://exa<mple.com/", err: ErrInvalidHost},
		{name: "relative_no_colon", method: "GET", target: "a/b", err: ErrTargetForm},
		{name: "empty", method: "GET", target: "", err: ErrTargetForm},
		{name: "connect", method: "CONNECT", target: "example.com:443", form: wire.AuthorityForm, authority: "example.com:443"},
		{name: "connect_ipv6", method: "CONNECT", target: "[2001:db8::1]:443", form: wire.AuthorityForm, authority: "[2001:db8::1]:443"},
		{name: "connect_no_port", method: "CONNECT", target: "example.com", err: ErrInvalidHost},
		{name: "connect_empty_port", method: "CONNECT", target: "example.com:", err: ErrInvalidHost},
		{name: "connect_userinfo", method: "CONNECT", target: "u@example.com:443", err: ErrTargetUserinfo},
		{name: "connect_origin_form", method: "CONNECT", target: "/a", err: ErrTargetForm},
		{name: "connect_absolute_form", method: "CONNECT", target: "http://example.com:443", err: ErrInvalidHost},
		{name: "asterisk", method: "OPTIONS", target: "*", form: wire.AsteriskForm, path: "*"},
		{name: "asterisk_not_options", method: "GET", target: "*", err: ErrTargetForm},
		{name: "authority_form_not_connect", method: "GET", target: "example.com:80", err: ErrTargetScheme},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var u URI
			err := u.Parse([]byte(tt.method), []byte(tt.target))
			if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
				t.Fatalf("Parse(%s %q) error = %v, want %v", tt.method, tt.target, err, tt.err)
			}
			if err != nil {
				return
			}
			if u.Form != tt.form || string(u.Scheme) != tt.scheme || string(u.Authority) != tt.authority ||
				string(u.RawPath) != tt.path || string(u.Query) != tt.query || (u.Query != nil) != tt.hasQuery {
				t.Fatalf("Parse(%s %q) = %+v", tt.method, tt.target, u)
			}
		})
	}
}

func TestURIEffectiveHost(t *testing.T) {
	tests := []struct{ name, method, target, host, want string }{
		{"origin_uses_host_field", "GET", "/a", "example.com", "example.com"},
		{"absolute_overrides_host_field", "GET", "http://a.example/x", "b.example", "a.example"},
		{"authority_form", "CONNECT", "a.example:443", "b.example", "a.example:443"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var u URI
			if err := u.Parse([]byte(tt.method), []byte(tt.target)); err != nil {
				t.Fatal(err)
			}
			if got := u.EffectiveHost([]byte(tt.host)); string(got) != tt.want {
				t.Fatalf("EffectiveHost = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestURIAppendPath(t *testing.T) {
	tests := []struct{ name, method, target, want string }{
		{"origin", "GET", "/a/%2e%2e/b", "/b"},
		{"absolute_empty_path", "GET", "http://h", "/"},
		{"asterisk", "OPTIONS", "*", "*"},
		{"authority", "CONNECT", "h:1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var u URI
			if err := u.Parse([]byte(tt.method), []byte(tt.target)); err != nil {
				t.Fatal(err)
			}
			got, err := u.AppendPath(nil)
			if err != nil || string(got) != tt.want {
				t.Fatalf("AppendPath = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestValidHost(t *testing.T) {
	tests := []struct {
		host string
		want bool
	}{
		{"example.com", true},
		{"example.com:80", true},
		{"EXAMPLE.com:65535", true},
		{"localhost:0", true},
		{"a_b-c~d.e", true},
		{"xn--caf-dma.example", true},
		{"%65xample.com", true},
		{"192.0.2.1", true},
		{"192.0.2.1:8080", true},
		{"[::1]", true},
		{"[::1]:443", true},
		{"[2001:db8::1]", true},
		{"[2001:db8:0:0:0:0:0:1]", true},
		{"[::ffff:192.0.2.1]", true},
		{"[1:2:3:4:5:6:192.0.2.1]", true},
		{"", false},
		{":80", false},
		{"example.com:", false},
		{"example.com:65536", false},
		{"example.com:123456", false},
		{"example.com:8o", false},
		{"exa mple.com", false},
		{"exa/mple.com", false},
		{"exa@mple.com", false},
		{"exa%zzmple", false},
		{"exa%4", false},
		{"caf\xc3\xa9.example", false},
		{"a\r\nb", false},
		{"[::1", false},
		{"[::1]x", false},
		{"[]", false},
		{"[::1%25eth0]", false},
		{"[v1.fe]", false},
		{"[1:2:3:4:5:6:7:8:9]", false},
		{"[1::2::3]", false},
		{"[12345::1]", false},
		{"[1:2:3:4:5:6:7]", false},
		{"[::ffff:192.0.2.256]", false},
		{"[::ffff:01.2.3.4]", false},
		{"[1:2:3:4:5:6:7:1.2.3.4]", false},
		{"[1:]", false},
		{"[:1]", false},
		{"a:b:80", false},
	}
	for _, tt := range tests {
		if got := wire.ValidHost([]byte(tt.host), false); got != tt.want {
			t.Errorf("wire.ValidHost(%q, false) = %v, want %v", tt.host, got, tt.want)
		}
	}
}

func TestSplitTarget(t *testing.T) {
	p, q := SplitTarget([]byte("/x?a=1?b"))
	if string(p) != "/x" || string(q) != "a=1?b" {
		t.Fatalf("SplitTarget = %q, %q", p, q)
	}
	if p, q = SplitTarget([]byte("/x")); string(p) != "/x" || q != nil {
		t.Fatalf("SplitTarget without query = %q, %q", p, q)
	}
}
