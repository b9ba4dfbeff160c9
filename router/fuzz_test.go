package router

import (
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/ascii"
)

// FuzzRouter registers random patterns (one a line; refused ones are
// skipped) and routes a random request: it must not panic, a pattern it
// picks must match the request by a plain reference matcher, with the
// same parameter values, and the trees alone, without the static index,
// must pick the same pattern.
func FuzzRouter(f *testing.F) {
	f.Add("GET /a/{x}\n/a/b\n/{y...}\nexample.com/\n/c/{$}", "GET", "example.com", "/a/b%2Fc")
	f.Add("/\n/{x}/\n/{x}/{y}\nPOST /{x}/b", "HEAD", "h", "/q/b/")
	f.Add("/files/{p...}\nGET /files/{d}/x\n/files/a/", "GET", "h:80", "/files/a/b/../x?q")
	f.Add("/%61\n/a%2Fb/{v}\n/sp%20/{v...}", "PUT", "", "/a%2fb/%25")
	f.Fuzz(func(t *testing.T, patterns, method, host, target string) {
		r := New()
		for _, p := range strings.Split(patterns, "\n") {
			r.Register(p, func(c *brisk.Ctx) { c.Response.SetStatusCode(299) })
		}
		var c brisk.Ctx
		c.Request.SetMethod(method)
		c.Request.SetTarget(target)
		c.Request.SetHost(host)
		r.Serve(&c)
		withoutStaticIndex(r)
		var tc brisk.Ctx
		tc.Request.SetMethod(method)
		tc.Request.SetTarget(target)
		tc.Request.SetHost(host)
		r.Serve(&tc)
		if tc.Pattern() != c.Pattern() || tc.Response.StatusCode() != c.Response.StatusCode() {
			t.Fatalf("pattern %q, status %d; without the static index %q, %d",
				c.Pattern(), c.Response.StatusCode(), tc.Pattern(), tc.Response.StatusCode())
		}
		if c.Response.StatusCode() != 299 {
			if c.Pattern() != "" {
				t.Fatalf("status %d with pattern %q", c.Response.StatusCode(), c.Pattern())
			}
			return
		}
		p, err := parsePattern(c.Pattern())
		if err != nil {
			t.Fatalf("matched pattern %q: %v", c.Pattern(), err)
		}
		if p.method != "" && p.method != method && !(p.method == "GET" && method == "HEAD") {
			t.Fatalf("pattern %q matched method %q", p.str, method)
		}
		if p.host != "" && !ascii.EqualFold(hostWithoutPort([]byte(host)), p.host) {
			t.Fatalf("pattern %q matched host %q", p.str, host)
		}
		vals, ok := refMatch(p, string(c.Request.Path()))
		if !ok {
			t.Fatalf("pattern %q matched path %q", p.str, c.Request.Path())
		}
		for i, name := range wildcardNames(t, p.str) {
			if got := string(c.Param(name)); got != vals[i] {
				t.Fatalf("pattern %q, path %q: %s = %q, want %q", p.str, c.Request.Path(), name, got, vals[i])
			}
		}
	})
}

// refMatch matches a decoded, normalized path against p segment by
// segment and returns the decoded values of its named wildcards.
func refMatch(p *pattern, path string) ([]string, bool) {
	var vals []string
	dec := func(s string) string {
		b, _ := unescapeAll([]byte(s), nil)
		return string(b)
	}
	rest := path
	for _, s := range p.segs {
		switch s.kind {
		case segMulti:
			if rest == "" {
				return nil, false
			}
			if s.s != "" {
				vals = append(vals, dec(rest[1:]))
			}
			return vals, true
		case segSlash:
			return vals, rest == "/"
		}
		if len(rest) < 2 || rest[0] != '/' {
			return nil, false
		}
		seg := rest[1:]
		rest = ""
		if i := strings.IndexByte(seg, '/'); i >= 0 {
			seg, rest = seg[:i], seg[i:]
		}
		if s.kind == segLit && seg != s.s {
			return nil, false
		}
		if s.kind == segWild {
			vals = append(vals, dec(seg))
		}
	}
	return vals, rest == ""
}
