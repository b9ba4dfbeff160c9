package brisk

import (
	"bytes"
	"errors"
	"testing"

	"github.com/brisk-http/brisk/internal/ascii"
)

func TestDecodePath(t *testing.T) {
	tests := []struct {
		name, raw, want string
		err             error
	}{
		{"empty", "", "/", nil},
		{"root", "/", "/", nil},
		{"plain", "/a/b/c.html", "/a/b/c.html", nil},
		{"trailing_slash_kept", "/a/b/", "/a/b/", nil},
		{"utf8", "/caf%C3%A9", "/café", nil},
		{"space_and_plus", "/a%20b+c", "/a b+c", nil},
		{"double_slash", "//a//b///c", "/a/b/c", nil},
		{"dot_segment", "/a/./b/.", "/a/b/", nil},
		{"dotdot", "/a/b/../c", "/a/c", nil},
		{"dotdot_at_end", "/a/b/..", "/a/", nil},
		{"climb_above_root", "/../../etc/passwd", "/etc/passwd", nil},
		{"climb_many", "/a/../../../../b", "/b", nil},
		{"encoded_dotdot", "/%2e%2e/%2E%2E/etc/passwd", "/etc/passwd", nil},
		{"mixed_encoded_dotdot", "/a/.%2e/.%2E/x", "/x", nil},
		{"encoded_slash_stays_encoded_dotdot", "/a/..%2f..%2fetc/passwd", "/a/..%2F..%2Fetc/passwd", nil},
		{"encoded_slash_stays_encoded", "/a%2Fb", "/a%2Fb", nil},
		{"encoded_double_slash_stays_encoded", "/a%2f%2Fb", "/a%2F%2Fb", nil},
		{"dot_slash_dotdot", "/./../x", "/x", nil},
		{"three_dots_is_a_name", "/a/.../b", "/a/.../b", nil},
		{"dotdot_semicolon_is_a_name", "/a/..;/b", "/a/..;/b", nil},
		{"encoded_percent_stays_encoded", "/%252e%252e/x", "/%252e%252e/x", nil},
		{"dotfile", "/.well-known/x", "/.well-known/x", nil},
		{"dotdotfile", "/a/..b", "/a/..b", nil},
		{"not_absolute", "a/b", "", ErrPathStart},
		{"not_absolute_encoded_slash", "%2Fa", "", ErrPathStart},
		{"bad_escape_letters", "/a%zz", "", ErrPathEscape},
		{"bad_escape_one_hex", "/a%4g", "", ErrPathEscape},
		{"truncated_escape", "/a%4", "", ErrPathEscape},
		{"truncated_percent", "/a%", "", ErrPathEscape},
		{"encoded_nul_stays_encoded", "/a%00b", "/a%00b", nil},
		{"encoded_lf_stays_encoded", "/a%0ab", "/a%0Ab", nil},
		{"encoded_cr_stays_encoded", "/a%0d", "/a%0D", nil},
		{"encoded_del_stays_encoded", "/a%7F", "/a%7F", nil},
		{"raw_tab", "/a\tb", "", ErrPathByte},
		{"backslash", "/a\\..\\..\\windows", "", ErrPathByte},
		{"encoded_backslash_stays_encoded", "/a/..%5c..%5cwindows", "/a/..%5C..%5Cwindows", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prefix := []byte("keep:")
			got, err := DecodePath(prefix, []byte(tt.raw))
			if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
				t.Fatalf("DecodePath(%q) error = %v, want %v", tt.raw, err, tt.err)
			}
			if err != nil {
				if string(got) != "keep:" {
					t.Fatalf("dst changed on error: %q", got)
				}
				return
			}
			if string(got) != "keep:"+tt.want {
				t.Fatalf("DecodePath(%q) = %q, want %q", tt.raw, got[5:], tt.want)
			}
		})
	}
}

// checkNormalized fails unless p is what DecodePath promises.
func checkNormalized(t *testing.T, raw string, p []byte) {
	t.Helper()
	if len(p) == 0 || p[0] != '/' {
		t.Fatalf("DecodePath(%q) = %q: does not start with /", raw, p)
	}
	for _, bad := range []string{"/../", "/./", "//", "\\"} {
		if bytes.Contains(p, []byte(bad)) {
			t.Fatalf("DecodePath(%q) = %q: contains %q", raw, p, bad)
		}
	}
	if bytes.HasSuffix(p, []byte("/..")) || bytes.HasSuffix(p, []byte("/.")) {
		t.Fatalf("DecodePath(%q) = %q: ends in a dot-segment", raw, p)
	}
	for _, c := range p {
		if ascii.IsCTL(c) {
			t.Fatalf("DecodePath(%q) = %q: holds a control character", raw, p)
		}
	}
}

func FuzzDecodePath(f *testing.F) {
	for _, s := range []string{"/", "/a/../b", "/%2e%2e/x", "/a/..%2f..%2f", "//a/./b/", "/..", "/a%zz", "/%00", "/a/.", "/a/..", "/.a/b.", "/a/b/", "/a\\b", "/\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		p, err := DecodePath(nil, []byte(raw))
		if cleanPath([]byte(raw)) {
			// The fast path returns raw as it is: DecodePath must too.
			if err != nil || string(p) != raw {
				t.Fatalf("cleanPath(%q), but DecodePath gives %q, %v", raw, p, err)
			}
			checkNormalized(t, raw, []byte(raw))
			if bytes.Contains([]byte(raw), []byte("%")) {
				t.Fatalf("cleanPath(%q) with %%", raw)
			}
		}
		if err != nil {
			return
		}
		checkNormalized(t, raw, p)
		// Normalizing is idempotent: every "%" left in p starts an escape
		// that stays encoded, so the result is unambiguous.
		q, err := DecodePath(nil, p)
		if err != nil || !bytes.Equal(p, q) {
			t.Fatalf("DecodePath(%q) = %q, again = %q, %v", raw, p, q, err)
		}
	})
}

func TestPathSpecialTable(t *testing.T) {
	if len(pathSpecialTable) != 256 {
		t.Fatalf("len %d", len(pathSpecialTable))
	}
	for c := range 256 {
		want := c < 0x20 || c == 0x7f || c == '%' || c == '/' || c == '\\'
		if got := pathSpecialTable[c] != 0; got != want {
			t.Errorf("byte %#x: table %v, want %v", c, got, want)
		}
	}
}
