package router

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
)

// handSets are pattern sets written to exercise each rule of
// net/http.ServeMux: hosts, "{$}", "{x...}", overlapping wildcards,
// methods, trailing slashes, escaped segments.
var handSets = map[string][]string{
	"hosts": {
		"/", "example.com/", "example.com/a/{x}", "/a/{x}", "GET api.example.com/v1/{id}",
		"POST /v1/{id}", "other.org/a/",
	},
	"dollar": {
		"/{$}", "/a/{$}", "/a/", "/b/{$}", "GET /c/{x}/{$}", "/c/{x}/", "/d/{$}", "/d",
	},
	"multi": {
		"/files/{path...}", "/files/special/{rest...}", "/files/special/x", "GET /files/{dir}/index",
		"/m/{a}/{b...}", "/n/", "/n/{x}", "/n/{x}/{y...}",
	},
	"wildcards": {
		"/a/b/c", "/a/{x}/c", "/a/b/{y}", "/{p}/q/{r}", "/x/{y}/z", "/x/{y}/{z}", "/x/w/{z}",
		"/users/{id}", "/users/new", "/users/{id}/posts/{post}", "/users/{id}/posts/latest",
	},
	"methods": {
		"GET /r", "POST /r", "PUT /r/{id}", "DELETE /r/{id}", "HEAD /h", "GET /h", "/any",
		"GET /g/", "POST /g/x", "PATCH /p/{x...}", "OPTIONS /o", "/o/{x}", "GET /only-get",
		"CUSTOM /c", "get /lower",
	},
	"trailing": {
		"/t/", "/t/sub", "/u/", "/u", "/v/w/", "GET /x/", "POST /x", "/y/{a}/", "/z/{a...}",
		"/s/{$}",
	},
	"escaped": {
		"/a%2Fb", "/%61/x", "/sp%20ace/{v}", "/pct%25/{v}", "/q/{v}", "/q/a%2fb", "/uni/caf%C3%A9",
		"/tilde/%7E",
	},
	"ipv6": {
		"/", "[::1]/", "[::1]/ip6", "GET [::1]/v1/{id}", "[::1]/files/{path...}", "/ip6/{x}",
	},
}

// handTargets are request paths tried against every hand set, on top of
// those generated from the patterns.
var handTargets = []string{
	"/", "/a", "/a/", "/a/b", "/a/b/c", "/a/x/c", "/a/b/z", "/a%2Fb", "/a%2fb", "/a/b%2Fc", "/%61/x",
	"/sp%20ace/1", "/pct%25/%25", "/q/a%2Fb", "/q/a/b", "/uni/caf%c3%a9", "/tilde/~", "/tilde/%7e",
	"/files", "/files/", "/files/a/b/c", "/files/special", "/files/special/", "/files/special/x",
	"/files/d/index", "/m/1", "/m/1/", "/m/1/2/3", "/n", "/n/", "/n/1", "/n/1/", "/n/1/2",
	"/users/1", "/users/new", "/users/1/posts/2", "/users/1/posts/latest", "/users/new/posts/latest",
	"/r", "/r/1", "/h", "/any", "/g", "/g/", "/g/x", "/p", "/p/", "/p/1/2", "/o", "/o/1", "/c", "/lower",
	"/t", "/t/", "/t/sub", "/t/sub/", "/u", "/u/", "/v/w", "/x", "/x/", "/y/1", "/y/1/", "/z/1", "/s",
	"/s/", "/d", "/d/", "/b", "/c/1", "/c/1/", "/ip6", "/v1/7", "/a/%7A/c",
	// unclean: dot-segments and empty segments are redirected
	"/a/./b", "/a/../a/b", "//a", "/a//b", "/../a", "/a/b/../../t", "/x/./", "/t/./sub",
	// queries are kept by redirects
	"/t?q=1", "/a/../r?x=y&z", "/g?", "/n?a",
	// absolute-form: an empty path is redirected to "/"
	"http://example.com", "http://example.com?q=1", "http://example.com/t?q=1", "https://h/a/../r",
	// a segment that decodes to "/" (a kept difference: see compareRoute)
	"/q/%2F", "/q/%2f", "/s/%2F", "/t/%2F", "/files/%2F", "/n/%2F/x",
}

var diffMethods = []string{"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CUSTOM"}

var diffHosts = []string{"example.com", "api.example.com", "other.org", "example.com:8080", "[::1]:80", "[::1]", "nowhere.test"}

// TestRouterDifferential routes the same requests through a Router and
// a net/http.ServeMux holding the same patterns and requires the same
// reply: status, pattern and parameters, Location, Allow.
func TestRouterDifferential(t *testing.T) {
	sets := map[string][]string{}
	for name, pats := range handSets {
		sets[name] = pats
	}
	for _, f := range []string{"github.txt", "gplus.txt", "parse.txt", "static.txt"} {
		sets[f] = readRouteFile(t, f)
	}
	for name, pats := range sets {
		t.Run(name, func(t *testing.T) {
			rs := newRouteSet(t, pats)
			if len(rs.patterns) < len(pats)*3/4 {
				t.Fatalf("only %d of %d patterns registered", len(rs.patterns), len(pats))
			}
			targets := append(slicesClone(handTargets), generatedTargets(rs.patterns)...)
			rng := rand.New(rand.NewPCG(uint64(len(name)), 17))
			targets = append(targets, randomTargets(rng, rs.patterns, 300)...)
			n := 0
			for _, target := range targets {
				if target == "" {
					continue
				}
				for _, m := range diffMethods {
					for _, h := range diffHosts {
						n++
						compareRoute(t, rs, m, h, target)
					}
				}
			}
			t.Logf("%d patterns, %d requests", len(rs.patterns), n)
		})
	}
}

// TestRouterDifferentialKept pins, for each difference from ServeMux
// that issue 27 raised, brisk's reply and ServeMux's: where they are
// equal, brisk emulates ServeMux; where they differ, brisk deliberately
// does better and Router's doc lists the difference. A ServeMux reply
// that changes means the doc needs updating.
func TestRouterDifferentialKept(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		patterns             []string
		method, host, target string
		brisk, netHTTP       routeReply
	}{
		// RFC 3986 §6.2.3: an empty path is "/"; redirected to its normal
		// form, as any unclean path is, the query kept.
		{"absolute_form_empty_path", []string{"/"}, "GET", "example.com", "http://example.com?q=1",
			routeReply{status: 307, location: "/?q=1"}, routeReply{status: 307, location: "/?q=1"}},
		{"absolute_form_empty_path_options", []string{"/"}, "OPTIONS", "example.com", "http://example.com",
			routeReply{status: 307, location: "/"}, routeReply{status: 307, location: "/"}},
		// ServeMux strips the port of "[::1]:8080" to "::1", which its
		// "[::1]/" pattern does not match (and brisk refuses "::1/").
		{"ipv6_host_with_port", []string{"/", "[::1]/ip6"}, "GET", "[::1]:8080", "/ip6",
			routeReply{status: 200, match: "[::1]/ip6|"}, routeReply{status: 200, match: "/|"}},
		{"ipv6_host", []string{"/", "[::1]/ip6"}, "GET", "[::1]", "/ip6",
			routeReply{status: 200, match: "[::1]/ip6|"}, routeReply{status: 200, match: "[::1]/ip6|"}},
		// ServeMux takes a segment that decodes to "/" for the trailing
		// "/": "{v}" does not match it, "{$}" does.
		{"escaped_slash_wildcard", []string{"/", "/q/{v}"}, "GET", "x", "/q/%2F",
			routeReply{status: 200, match: "/q/{v}|v=/"}, routeReply{status: 200, match: "/|"}},
		{"escaped_slash_dollar", []string{"/", "/q/{$}"}, "GET", "x", "/q/%2F",
			routeReply{status: 200, match: "/|"}, routeReply{status: 200, match: "/q/{$}|"}},
		{"escaped_slash_middle", []string{"/r/{v}/x"}, "GET", "x", "/r/%2F/x",
			routeReply{status: 200, match: "/r/{v}/x|v=/"}, routeReply{status: 404}},
		{"escaped_slash_multi", []string{"/s/{v...}"}, "GET", "x", "/s/%2F",
			routeReply{status: 200, match: "/s/{v...}|v=/"}, routeReply{status: 200, match: "/s/{v...}|v=/"}},
	} {
		rs := newRouteSet(t, tc.patterns)
		if got := rs.serveBrisk(tc.method, tc.host, tc.target); got != tc.brisk {
			t.Errorf("%s: brisk %s %s (Host %s): %+v, want %+v", tc.name, tc.method, tc.target, tc.host, got, tc.brisk)
		}
		if got := rs.serveNetHTTP(tc.method, tc.host, tc.target); got != tc.netHTTP {
			t.Errorf("%s: net/http %s %s (Host %s): %+v, want %+v (ServeMux changed: update Router's doc)",
				tc.name, tc.method, tc.target, tc.host, got, tc.netHTTP)
		}
	}
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// compareRoute checks one request, except where brisk deliberately
// differs (see Router's doc and TestRouterDifferentialKept): an escaped
// dot-segment, a segment that decodes to "/", the Location of a redirect
// whose path has an escape or ends in a dot-segment. An IP-literal host
// with a port is routed as the host alone, which is how ServeMux routes
// it without the port.
func compareRoute(t *testing.T, rs *routeSet, method, host, target string) {
	t.Helper()
	got := rs.serveBrisk(method, host, target)
	want := rs.serveNetHTTP(method, ipLiteralWithoutPort(host), target)
	raw, _ := brisk.SplitTarget([]byte(target))
	if hasEscapedDot(raw) || hasEscapedSlashSegment(raw) {
		return
	}
	if got.status == 307 && want.status == 307 && (strings.Contains(string(raw), "%") || endsInDot(raw)) {
		return
	}
	if got != want {
		t.Errorf("%s %s (Host %s):\n brisk    %+v\n net/http %+v", method, target, host, got, want)
	}
}

// hasEscapedDot reports a dot-segment written with "%2e": brisk
// normalizes it, ServeMux matches it as a segment.
func hasEscapedDot(raw []byte) bool {
	for _, seg := range strings.Split(string(raw), "/") {
		if isDotSegment([]byte(seg)) && strings.Contains(seg, "%") {
			return true
		}
	}
	return false
}

// hasEscapedSlashSegment reports a segment that is "%2F" alone: brisk
// matches it as any one-character segment, ServeMux as a trailing "/".
func hasEscapedSlashSegment(raw []byte) bool {
	for _, seg := range strings.Split(string(raw), "/") {
		if strings.EqualFold(seg, "%2F") {
			return true
		}
	}
	return false
}

// ipLiteralWithoutPort returns host without its port when host is an
// IP-literal ("[::1]:80" becomes "[::1]"), else host.
func ipLiteralWithoutPort(host string) string {
	if strings.HasPrefix(host, "[") {
		if i := strings.LastIndex(host, "]:"); i >= 0 {
			return host[:i+1]
		}
	}
	return host
}

// endsInDot reports a path ending in a dot-segment: brisk keeps the
// trailing "/" of the normalized path, ServeMux does not.
func endsInDot(raw []byte) bool {
	i := strings.LastIndexByte(string(raw), '/')
	return isDotSegment(raw[i+1:])
}

// generatedTargets returns, for each pattern, paths that match it and
// near misses: wildcards filled in, a "/" added or removed, a segment
// added, a literal changed or escaped.
func generatedTargets(patterns []string) []string {
	var out []string
	for _, pat := range patterns {
		p, err := parsePattern(pat)
		if err != nil {
			continue
		}
		for _, fill := range []string{"v", "a%2Fb", "%7E"} {
			path := fillPattern(p, fill, "m1/m2")
			out = append(out, path, path+"/", path+"/zz", strings.TrimSuffix(path, "/"))
		}
		out = append(out, fillPattern(p, "w", ""))
		for i, s := range p.segs {
			if s.kind == segLit && s.s != "" {
				q := *p
				q.segs = append([]segment(nil), p.segs...)
				q.segs[i].s = s.s + "x"
				out = append(out, fillPattern(&q, "v", ""))
				if s.s[0] != '%' {
					q.segs[i].s = fmt.Sprintf("%%%02x%s", s.s[0], s.s[1:])
				}
				out = append(out, fillPattern(&q, "v", ""))
			}
		}
	}
	return out
}

// fillPattern writes a path matching p's segments, wildcards given the
// value one, multis the value multi.
func fillPattern(p *pattern, one, multi string) string {
	var b strings.Builder
	for _, s := range p.segs {
		b.WriteByte('/')
		switch s.kind {
		case segLit:
			b.Write(appendEscapedPath(nil, []byte(s.s)))
		case segWild:
			b.WriteString(one)
		case segMulti:
			b.WriteString(multi)
		}
	}
	return b.String()
}

// randomTargets returns n random paths made of the patterns' literals and
// a few odd segments.
func randomTargets(rng *rand.Rand, patterns []string, n int) []string {
	vocab := []string{"x", "1", "a%2Fb", "%25", "..", ".", "", "%7e", "caf%C3%A9"}
	for _, pat := range patterns {
		if p, err := parsePattern(pat); err == nil {
			for _, s := range p.segs {
				if s.kind == segLit {
					vocab = append(vocab, string(appendEscapedPath(nil, []byte(s.s))))
				}
			}
		}
	}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString("/" + vocab[rng.IntN(len(vocab))])
		}
		if b.Len() == 0 || rng.IntN(4) == 0 {
			b.WriteByte('/')
		}
		out[i] = b.String()
	}
	return out
}
