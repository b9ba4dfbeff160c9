package router

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
)

// conflictPool holds patterns whose pairs cover every relation of
// methods, hosts and paths.
var conflictPool = []string{
	"/", "/{$}", "/a", "/a/", "/a/{$}", "/{x}", "/{x}/", "/{x...}", "/a/{x}", "/{x}/b", "/a/b",
	"/a/{x...}", "/{x}/{y}", "/a/{x}/c", "/a/b/{y}", "/{x}/{y...}", "/{x}/{$}", "/b/{x}/{y...}",
	"GET /", "GET /a", "GET /{x}", "GET /a/", "GET /a/{x...}", "HEAD /a", "HEAD /{x}", "POST /a",
	"POST /{x}", "GET /{x}/b", "example.com/", "example.com/a", "example.com/{x}",
	"GET example.com/{x}", "other.org/{x}/b", "/a%2Fb", "/a/b%2Fc", "/%61", "/{x}/%62",
}

// TestRouterConflictsLikeNetHTTP registers every ordered pair of the
// pool in a fresh Router and ServeMux: both must refuse the same pairs,
// and brisk's error names both patterns.
func TestRouterConflictsLikeNetHTTP(t *testing.T) {
	refused := 0
	for _, p1 := range conflictPool {
		for _, p2 := range conflictPool {
			if p1 == p2 {
				continue
			}
			r := New()
			if err := r.Register(p1, func(*brisk.Ctx) {}); err != nil {
				t.Fatalf("Register(%q): %v", p1, err)
			}
			errB := r.Register(p2, func(*brisk.Ctx) {})
			mux := http.NewServeMux()
			registerNetHTTP(mux, p1)
			errN := registerNetHTTP(mux, p2)
			if (errB != nil) != (errN != nil) {
				t.Errorf("%q then %q: brisk %v, net/http %v", p1, p2, errB, errN)
				continue
			}
			if errB == nil {
				continue
			}
			refused++
			var pe *PatternError
			if !errors.As(errB, &pe) || !errors.Is(errB, ErrPatternConflict) || pe.Pattern != p2 || pe.Conflict != p1 {
				t.Errorf("%q then %q: error %#v", p1, p2, errB)
			}
			if msg := errB.Error(); !strings.Contains(msg, `"`+p1+`"`) || !strings.Contains(msg, `"`+p2+`"`) {
				t.Errorf("error %q does not name both", msg)
			}
		}
	}
	if refused < 50 {
		t.Errorf("only %d conflicting pairs: the pool does not exercise conflicts", refused)
	}
	t.Logf("%d ordered pairs refused", refused)
}

// TestRouterConflictMessage checks the reasons given.
func TestRouterConflictMessage(t *testing.T) {
	for _, tc := range []struct{ p1, p2, want string }{
		{"/a/{x}", "/{y}/b", `router: pattern "/{y}/b" conflicts with "/a/{x}": both match some paths, like "/a/b", but neither is more specific`},
		{"GET /a", "GET /a", `router: pattern "GET /a" conflicts with "GET /a": they match the same requests`},
		{"GET /", "/index.html", `router: pattern "/index.html" conflicts with "GET /": it matches more methods, but has a more specific path`},
		{"/index.html", "GET /", `router: pattern "GET /" conflicts with "/index.html": it matches fewer methods, but has a more general path`},
	} {
		r := New()
		r.Handle(tc.p1, func(*brisk.Ctx) {})
		if err := r.Register(tc.p2, func(*brisk.Ctx) {}); err == nil || err.Error() != tc.want {
			t.Errorf("%q then %q:\n got  %v\n want %s", tc.p1, tc.p2, err, tc.want)
		}
	}
}

// TestRouterPatternSyntax checks the patterns Register refuses, with the
// ones net/http also refuses and the deliberate differences.
func TestRouterPatternSyntax(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		offset  int
		netHTTP bool // net/http refuses it too
	}{
		{"", 0, true},
		{"GET", 0, true},
		{"G@T /", 0, true},
		{"/{", 1, true},
		{"/a{x}", 1, true},
		{"/{x", 1, true},
		{"/{}", 1, true},
		{"/{1x}", 1, true},
		{"/{x}/{x}", 5, true},
		{"/{x...}/a", 1, true},
		{"/{$}/a", 1, true},
		{"/{x...}/", 1, true},
		{"ex{a}mple.com/", 0, true},
		{"GET /a/../b", 4, true},
		{"GET /a//b", 4, true},
		// deliberate: these can never match a request brisk routes
		{"/a/../b", 0, false},
		{"/a/%2e%2e/b", 3, false},
		{"/%2E", 1, false},
		{"example.com:8080/", 0, false},
		{"a^b.com/", 0, false},
	} {
		err := New().Register(tc.pattern, func(*brisk.Ctx) {})
		var pe *PatternError
		if !errors.As(err, &pe) || !errors.Is(err, ErrPatternSyntax) || pe.Offset != tc.offset || pe.Conflict != "" {
			t.Errorf("Register(%q) = %v (offset %d), want a syntax error at offset %d", tc.pattern, err, offsetOf(pe), tc.offset)
		}
		if errN := registerNetHTTP(http.NewServeMux(), tc.pattern); (errN != nil) != tc.netHTTP {
			t.Errorf("net/http on %q: %v, want refused=%v", tc.pattern, errN, tc.netHTTP)
		}
	}
	if err := New().Register("/", nil); !errors.Is(err, ErrPatternSyntax) {
		t.Errorf("nil handler: %v", err)
	}
}

func offsetOf(pe *PatternError) int {
	if pe == nil {
		return -2
	}
	return pe.Offset
}
