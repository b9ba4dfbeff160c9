package brisk

import (
	"errors"
	"testing"
	"time"
)

func TestSetCookieAppendTo(t *testing.T) {
	exp := time.Date(2026, 3, 7, 8, 9, 10, 0, time.FixedZone("X", 3600))
	tests := []struct {
		name string
		c    SetCookie
		want string
	}{
		{"minimal", SetCookie{Name: "a", Value: "1"}, "a=1"},
		{"empty_value", SetCookie{Name: "a"}, "a="},
		{"quoted_value", SetCookie{Name: "a", Value: `"xy"`}, `a="xy"`},
		{"all", SetCookie{Name: "sid", Value: "abc", Path: "/app", Domain: "example.com", Expires: exp, MaxAge: 3600,
			Secure: true, HttpOnly: true, SameSite: SameSiteStrict, Partitioned: true},
			"sid=abc; Path=/app; Domain=example.com; Expires=Sat, 07 Mar 2026 07:09:10 GMT; Max-Age=3600; Secure; HttpOnly; SameSite=Strict; Partitioned"},
		{"delete_now", SetCookie{Name: "a", MaxAge: -1}, "a=; Max-Age=0"},
		{"lax", SetCookie{Name: "a", Value: "1", SameSite: SameSiteLax}, "a=1; SameSite=Lax"},
		{"none_secure", SetCookie{Name: "a", Value: "1", SameSite: SameSiteNone, Secure: true}, "a=1; Secure; SameSite=None"},
		{"host_prefix", SetCookie{Name: "__Host-id", Value: "1", Path: "/", Secure: true}, "__Host-id=1; Path=/; Secure"},
		{"leading_dot_domain", SetCookie{Name: "a", Value: "1", Domain: ".example.com"}, "a=1; Domain=.example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.c.AppendTo([]byte("Set-Cookie: "))
			if err != nil || string(got) != "Set-Cookie: "+tt.want {
				t.Fatalf("AppendTo = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestSetCookieRefusesInjection(t *testing.T) {
	tests := []struct {
		name string
		c    SetCookie
		err  error
	}{
		{"empty_name", SetCookie{}, ErrCookieName},
		{"name_crlf", SetCookie{Name: "a\r\nSet-Cookie: x", Value: "1"}, ErrCookieName},
		{"name_semicolon", SetCookie{Name: "a;b", Value: "1"}, ErrCookieName},
		{"name_equals", SetCookie{Name: "a=b", Value: "1"}, ErrCookieName},
		{"name_space", SetCookie{Name: "a b", Value: "1"}, ErrCookieName},
		{"value_crlf", SetCookie{Name: "a", Value: "1\r\nX-Injected: 1"}, ErrCookieValue},
		{"value_lf", SetCookie{Name: "a", Value: "1\nx"}, ErrCookieValue},
		{"value_semicolon", SetCookie{Name: "a", Value: "1; Domain=evil.example"}, ErrCookieValue},
		{"value_ctl", SetCookie{Name: "a", Value: "1\x00"}, ErrCookieValue},
		{"value_del", SetCookie{Name: "a", Value: "1\x7f"}, ErrCookieValue},
		{"value_comma", SetCookie{Name: "a", Value: "1,2"}, ErrCookieValue},
		{"value_space", SetCookie{Name: "a", Value: "1 2"}, ErrCookieValue},
		{"value_inner_dquote", SetCookie{Name: "a", Value: `1"2`}, ErrCookieValue},
		{"value_lone_dquote", SetCookie{Name: "a", Value: `"12`}, ErrCookieValue},
		{"value_backslash", SetCookie{Name: "a", Value: `1\2`}, ErrCookieValue},
		{"value_8bit", SetCookie{Name: "a", Value: "caf\xc3\xa9"}, ErrCookieValue},
		{"path_semicolon", SetCookie{Name: "a", Path: "/; Domain=evil.example"}, ErrCookiePath},
		{"path_crlf", SetCookie{Name: "a", Path: "/\r\nX: 1"}, ErrCookiePath},
		{"path_8bit", SetCookie{Name: "a", Path: "/\xff"}, ErrCookiePath},
		{"domain_semicolon", SetCookie{Name: "a", Domain: "example.com; Secure"}, ErrCookieDomain},
		{"domain_crlf", SetCookie{Name: "a", Domain: "example.com\r\n"}, ErrCookieDomain},
		{"domain_empty_label", SetCookie{Name: "a", Domain: "example..com"}, ErrCookieDomain},
		{"domain_hyphen_edge", SetCookie{Name: "a", Domain: "-example.com"}, ErrCookieDomain},
		{"domain_only_dot", SetCookie{Name: "a", Domain: "."}, ErrCookieDomain},
		{"expires_year_1600", SetCookie{Name: "a", Expires: time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC)}, ErrCookieExpires},
		{"expires_year_10000", SetCookie{Name: "a", Expires: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, ErrCookieExpires},
		{"partitioned_without_secure", SetCookie{Name: "a", Partitioned: true}, ErrCookieSecure},
		{"samesite_none_without_secure", SetCookie{Name: "a", SameSite: SameSiteNone}, ErrCookieSecure},
		{"secure_prefix_without_secure", SetCookie{Name: "__Secure-a"}, ErrCookiePrefix},
		{"host_prefix_with_domain", SetCookie{Name: "__Host-a", Secure: true, Path: "/", Domain: "example.com"}, ErrCookiePrefix},
		{"host_prefix_other_path", SetCookie{Name: "__Host-a", Secure: true, Path: "/x"}, ErrCookiePrefix},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := []byte("keep")
			got, err := tt.c.AppendTo(dst)
			if !errors.Is(err, tt.err) {
				t.Fatalf("AppendTo error = %v, want %v", err, tt.err)
			}
			if string(got) != "keep" {
				t.Fatalf("AppendTo wrote %q on error", got)
			}
		})
	}
}

func TestParseSetCookie(t *testing.T) {
	tests := []struct {
		name, value string
		want        SetCookie
		err         error
	}{
		{name: "minimal", value: "a=1", want: SetCookie{Name: "a", Value: "1"}},
		{name: "all", value: " sid = abc ; path=/app; DOMAIN=.Example.com; expires=Sat, 07 Mar 2026 07:09:10 GMT; Max-Age=60; secure; HttpOnly; samesite=lax; Partitioned; Unknown=x",
			want: SetCookie{Name: "sid", Value: "abc", Path: "/app", Domain: "Example.com", Expires: time.Date(2026, 3, 7, 7, 9, 10, 0, time.UTC),
				MaxAge: 60, Secure: true, HttpOnly: true, SameSite: SameSiteLax, Partitioned: true}},
		{name: "max_age_zero", value: "a=1; Max-Age=0", want: SetCookie{Name: "a", Value: "1", MaxAge: -1}},
		{name: "max_age_negative", value: "a=1; Max-Age=-5", want: SetCookie{Name: "a", Value: "1", MaxAge: -1}},
		{name: "max_age_invalid_ignored", value: "a=1; Max-Age=1x", want: SetCookie{Name: "a", Value: "1"}},
		{name: "max_age_plus_ignored", value: "a=1; Max-Age=+1", want: SetCookie{Name: "a", Value: "1"}},
		{name: "bad_expires_ignored", value: "a=1; Expires=tomorrow", want: SetCookie{Name: "a", Value: "1"}},
		{name: "rfc850_expires", value: "a=1; Expires=Sunday, 06-Nov-94 08:49:37 GMT", want: SetCookie{Name: "a", Value: "1", Expires: time.Date(1994, 11, 6, 8, 49, 37, 0, time.UTC)}},
		{name: "relative_path_ignored", value: "a=1; Path=x", want: SetCookie{Name: "a", Value: "1"}},
		{name: "unknown_samesite", value: "a=1; SameSite=Bogus", want: SetCookie{Name: "a", Value: "1"}},
		{name: "quoted_value_kept", value: `a="1"`, want: SetCookie{Name: "a", Value: `"1"`}},
		{name: "no_equals", value: "a; Path=/", err: ErrSetCookieSyntax},
		{name: "bad_name", value: "a b=1", err: ErrCookieName},
		{name: "empty_name", value: "=1", err: ErrCookieName},
		{name: "bad_value", value: "a=1,2", err: ErrCookieValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c SetCookie
			err := ParseSetCookie([]byte(tt.value), &c)
			if !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
				t.Fatalf("ParseSetCookie(%q) error = %v, want %v", tt.value, err, tt.err)
			}
			if err == nil && !c.Expires.Equal(tt.want.Expires) {
				t.Fatalf("Expires = %v, want %v", c.Expires, tt.want.Expires)
			}
			c.Expires, tt.want.Expires = time.Time{}, time.Time{}
			if err == nil && c != tt.want {
				t.Fatalf("ParseSetCookie(%q) = %+v, want %+v", tt.value, c, tt.want)
			}
		})
	}
}

func TestSetCookieRoundTrip(t *testing.T) {
	in := SetCookie{Name: "__Host-s", Value: "v", Path: "/", Expires: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC),
		MaxAge: -1, Secure: true, HttpOnly: true, SameSite: SameSiteNone, Partitioned: true}
	b, err := in.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	var out SetCookie
	if err := ParseSetCookie(b, &out); err != nil || out != in {
		t.Fatalf("round trip of %q = %+v, %v", b, out, err)
	}
}
