package brisk

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestCookieValue(t *testing.T) {
	const real = "session=4f1c2a9e7b3d8e60; theme=dark; cart=3x81273.1x99120; _ga=GA1.2.1187302112.1732950000; consent=analytics%3Dno"
	tests := []struct {
		name, value, key, want string
		found                  bool
	}{
		{"real_first", real, "session", "4f1c2a9e7b3d8e60", true},
		{"real_last", real, "consent", "analytics%3Dno", true},
		{"real_missing", real, "nope", "", false},
		{"first_wins", "a=1; a=2", "a", "1", true},
		{"invalid_first_skipped", "a=\x01; a=2", "a", "2", true},
		{"invalid_neighbour_kept", "b=1; bad name=2; c=3", "c", "3", true},
		{"bad_value_neighbour_kept", "b=x\\y; c=3", "c", "3", true},
		{"no_equals_neighbour_kept", "junk; c=3", "c", "3", true},
		{"quoted", `a="xyz"`, "a", "xyz", true},
		{"quoted_empty", `a=""`, "a", "", true},
		{"lone_quote_invalid", `a="xyz`, "a", "", false},
		{"inner_quote_invalid", `a=x"y`, "a", "", false},
		{"ows_around_semicolon", "a=1 ;\tb=2 ;c=3", "b", "2", true},
		{"ows_around_equals", "a = 1", "a", "1", true},
		{"no_space_after_semicolon", "a=1;b=2", "b", "2", true},
		{"empty_value", "a=; b=2", "a", "", true},
		{"value_with_equals", "a=b=c; d=1", "a", "b=c", true},
		{"value_with_space", "a=x y", "a", "x y", true},
		{"case_sensitive", "A=1", "a", "", false},
		{"only_semicolons", strings.Repeat(";", 45), "a", "", false},
		{"empty_field", "", "a", "", false},
		{"name_not_token", "a=1", "a b", "", false},
		{"8bit_value_invalid", "a=caf\xc3\xa9", "a", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := CookieValue([]byte(tt.value), tt.key)
			if ok != tt.found || string(got) != tt.want {
				t.Fatalf("CookieValue(%q, %q) = %q, %v; want %q, %v", tt.value, tt.key, got, ok, tt.want, tt.found)
			}
		})
	}
}

func TestLookupCookieAcrossFields(t *testing.T) {
	fields := [][]byte{[]byte("a=1; junk"), []byte("b=2; a=3"), []byte("b=4")}
	if v, ok := LookupCookie(slices.Values(fields), "b"); !ok || string(v) != "2" {
		t.Fatalf("LookupCookie(b) = %q, %v; want 2 from the second field", v, ok)
	}
	if v, ok := LookupCookie(slices.Values(fields), "a"); !ok || string(v) != "1" {
		t.Fatalf("LookupCookie(a) = %q, %v; want 1", v, ok)
	}
	if _, ok := LookupCookie(slices.Values(fields), "c"); ok {
		t.Fatal("LookupCookie(c) found")
	}
}

func TestCookiePairs(t *testing.T) {
	var got []string
	for k, v := range CookiePairs([]byte(`a=1; bad name=2;; =x; b="q"; junk; a=3; c=\; d=4`)) {
		got = append(got, string(k)+":"+string(v))
	}
	if s := strings.Join(got, ","); s != "a:1,b:q,a:3,d:4" {
		t.Fatalf("CookiePairs = %s", s)
	}
}

// FuzzCookieValue checks CookieValue against CookiePairs and, where both
// accept the input, against net/http.
func FuzzCookieValue(f *testing.F) {
	f.Add("session=4f1c; theme=dark", "theme")
	f.Add(";;;;", "a")
	f.Add(`a="b"; a=c`, "a")
	f.Fuzz(func(t *testing.T, value, name string) {
		got, ok := CookieValue([]byte(value), name)
		var first []byte
		found := false
		for k, v := range CookiePairs([]byte(value)) {
			if !validToken(k) {
				t.Fatalf("CookiePairs yields invalid name %q", k)
			}
			if _, valid := cookiePairValue(v); !valid {
				t.Fatalf("CookiePairs yields invalid value %q", v)
			}
			if !found && string(k) == name {
				first, found = v, true
			}
		}
		if ok != found || string(got) != string(first) {
			t.Fatalf("CookieValue(%q, %q) = %q, %v; CookiePairs gives %q, %v", value, name, got, ok, first, found)
		}
		if !ok {
			return
		}
		r := http.Request{Header: http.Header{"Cookie": {value}}}
		if c, err := r.Cookie(name); err == nil && c.Value != string(got) && !strings.ContainsAny(value, "\"\\") {
			t.Logf("net/http differs on %q: %q vs %q", value, c.Value, got)
		}
	})
}
