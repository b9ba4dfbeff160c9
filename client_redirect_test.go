package brisk

import (
	"errors"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/brisk-http/brisk/wire"
)

// TestResolveReference: the examples of RFC 3986 §5.4.1 (normal) and
// §5.4.2 (abnormal) that apply to http, with base "http://a/b/c/d;p?q"
// and fragments dropped, then http-specific cases.
func TestResolveReference(t *testing.T) {
	rfcBase := &target{authority: []byte("a"), origin: []byte("/b/c/d;p?q")}
	cases := []struct {
		name, base, ref, want string
		https                 bool
		wantErr               error
	}{
		{name: "g", ref: "g", want: "http://a/b/c/g"},
		{name: "dot_g", ref: "./g", want: "http://a/b/c/g"},
		{name: "g_slash", ref: "g/", want: "http://a/b/c/g/"},
		{name: "abs_path", ref: "/g", want: "http://a/g"},
		{name: "network_path", ref: "//g", want: "http://g"},
		{name: "query", ref: "?y", want: "http://a/b/c/d;p?y"},
		{name: "g_query", ref: "g?y", want: "http://a/b/c/g?y"},
		{name: "fragment", ref: "#s", want: "http://a/b/c/d;p?q"},
		{name: "g_fragment", ref: "g#s", want: "http://a/b/c/g"},
		{name: "g_query_fragment", ref: "g?y#s", want: "http://a/b/c/g?y"},
		{name: "params", ref: ";x", want: "http://a/b/c/;x"},
		{name: "g_params", ref: "g;x", want: "http://a/b/c/g;x"},
		{name: "g_params_query_fragment", ref: "g;x?y#s", want: "http://a/b/c/g;x?y"},
		{name: "empty", ref: "", want: "http://a/b/c/d;p?q"},
		{name: "dot", ref: ".", want: "http://a/b/c/"},
		{name: "dot_slash", ref: "./", want: "http://a/b/c/"},
		{name: "dotdot", ref: "..", want: "http://a/b/"},
		{name: "dotdot_slash", ref: "../", want: "http://a/b/"},
		{name: "dotdot_g", ref: "../g", want: "http://a/b/g"},
		{name: "dotdot_dotdot", ref: "../..", want: "http://a/"},
		{name: "dotdot_dotdot_slash", ref: "../../", want: "http://a/"},
		{name: "dotdot_dotdot_g", ref: "../../g", want: "http://a/g"},
		// RFC 3986 §5.4.2.
		{name: "above_root", ref: "../../../g", want: "http://a/g"},
		{name: "above_root_twice", ref: "../../../../g", want: "http://a/g"},
		{name: "abs_dot", ref: "/./g", want: "http://a/g"},
		{name: "abs_dotdot", ref: "/../g", want: "http://a/g"},
		{name: "g_dot", ref: "g.", want: "http://a/b/c/g."},
		{name: "dot_g_name", ref: ".g", want: "http://a/b/c/.g"},
		{name: "g_dotdot", ref: "g..", want: "http://a/b/c/g.."},
		{name: "dotdot_g_name", ref: "..g", want: "http://a/b/c/..g"},
		{name: "dot_dotdot_g", ref: "./../g", want: "http://a/b/g"},
		{name: "dot_g_dot", ref: "./g/.", want: "http://a/b/c/g/"},
		{name: "g_dot_h", ref: "g/./h", want: "http://a/b/c/g/h"},
		{name: "g_dotdot_h", ref: "g/../h", want: "http://a/b/c/h"},
		{name: "params_dot", ref: "g;x=1/./y", want: "http://a/b/c/g;x=1/y"},
		{name: "params_dotdot", ref: "g;x=1/../y", want: "http://a/b/c/y"},
		{name: "query_dots_kept", ref: "g?y/./x", want: "http://a/b/c/g?y/./x"},
		{name: "query_dots_kept_2", ref: "g?y/../x", want: "http://a/b/c/g?y/../x"},
		{name: "fragment_dots", ref: "g#s/./x", want: "http://a/b/c/g"},
		{name: "http_without_authority", ref: "http:g", wantErr: ErrInvalidURI},
		{name: "other_scheme", ref: "g:h", wantErr: errRedirectScheme},
		// http specifics.
		{name: "ftp", ref: "ftp://x/y", wantErr: errRedirectScheme},
		{name: "mailto", ref: "mailto:a@b", wantErr: errRedirectScheme},
		{name: "host_port_looks_like_scheme", ref: "localhost:8080/x", wantErr: errRedirectScheme},
		{name: "colon_after_slash_is_path", ref: "./a:b", want: "http://a/b/c/a:b"},
		{name: "absolute_http", ref: "http://x.example:81/p/../q?r#f", want: "http://x.example:81/q?r"},
		{name: "absolute_scheme_case", ref: "HTTPS://X/p", want: "https://X/p"},
		{name: "absolute_no_path", ref: "http://x", want: "http://x"},
		{name: "network_path_keeps_https", https: true, ref: "//h/p", want: "https://h/p"},
		{name: "relative_keeps_https", https: true, ref: "p", want: "https://a/b/c/p"},
		{name: "query_only_from_path", base: "/qonly", ref: "?q=2", want: "http://a/qonly?q=2"},
		{name: "empty_query", base: "/p?q", ref: "?", want: "http://a/p?"},
		{name: "relative_from_a_x", base: "/a/x", ref: "b/c", want: "http://a/a/b/c"},
		{name: "dotdot_from_a_x", base: "/a/x", ref: "../c", want: "http://a/c"},
		{name: "dot_from_a_x", base: "/a/x", ref: "./c", want: "http://a/a/c"},
		{name: "base_without_path", base: "?q", ref: "g", want: "http://a/g"},
		{name: "base_root", base: "/", ref: "g", want: "http://a/g"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := *rfcBase
			if tc.base != "" {
				base.origin = []byte(tc.base)
			}
			base.https = tc.https
			ref := []byte(tc.ref)
			got, _, err := resolveReference(nil, &base, ref)
			if tc.wantErr != nil {
				if err != tc.wantErr || !errors.Is(err, ErrInvalidURI) {
					t.Fatalf("resolve(%q) = %q, %v; want error %v", tc.ref, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("resolve(%q) = %q, %v; want %q", tc.ref, got, err, tc.want)
			}
			if string(ref) != tc.ref {
				t.Fatalf("ref modified: %q", ref)
			}
		})
	}
}

func TestSameAuthority(t *testing.T) {
	cases := []struct {
		name   string
		a, b   string
		aTLS   bool
		bTLS   bool
		expect bool
	}{
		{"identical", "a.example:8080", "a.example:8080", false, false, true},
		{"host_case", "A.Example", "a.example", false, false, true},
		{"default_port_http", "a.example", "a.example:80", false, false, true},
		{"default_port_https", "a.example:443", "a.example", true, true, true},
		{"leading_zero_port", "a.example:080", "a.example", false, false, true},
		{"ipv6_default_port", "[::1]", "[::1]:80", false, false, true},
		{"other_port", "a.example:8080", "a.example:8081", false, false, false},
		{"other_host", "a.example", "b.example", false, false, false},
		{"subdomain", "a.example", "x.a.example", false, false, false},
		{"other_scheme", "a.example", "a.example", false, true, false},
		{"ipv6_other_port", "[::1]:80", "[::1]:81", false, false, false},
		{"ip_vs_name", "127.0.0.1:8080", "localhost:8080", false, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := target{authority: []byte(tc.a), https: tc.aTLS}
			b := target{authority: []byte(tc.b), https: tc.bTLS}
			if got := sameOrigin(&a, &b); got != tc.expect {
				t.Fatalf("sameOrigin(%q, %q) = %v", tc.a, tc.b, got)
			}
		})
	}
}

// credentials echoes the credential fields a request carried, and its
// Host and request-target.
func credentials(c *Ctx) {
	h := &c.Request.Header
	c.Response.SetBodyString(strings.Join([]string{
		string(h.Get("Authorization")), string(h.Get("Proxy-Authorization")),
		string(h.Get("Cookie")), string(c.Request.Host()), string(c.Request.Target()),
	}, "|"))
}

// TestClientRedirectCredentials: a redirect to another origin drops
// Authorization, Proxy-Authorization and Cookie; one to the same origin
// keeps them.
func TestClientRedirectCredentials(t *testing.T) {
	var loc atomic.Pointer[string]
	redirecting := func(c *Ctx) {
		if string(c.Request.Path()) == "/login" {
			c.Response.SetStatusCode(302)
			c.Response.Header.Set("Location", *loc.Load())
			return
		}
		credentials(c)
	}
	a := startClientServer(t, "tcp", redirecting)
	b := startClientServer(t, "tcp", credentials)
	aHost := strings.TrimPrefix(a.url, "http://")
	bHost := strings.TrimPrefix(b.url, "http://")
	_, aPort, _ := strings.Cut(aHost, ":")
	const creds = "Basic dXNlcjpwYXNz|Bearer proxy|session=SECRET"
	cases := []struct {
		name     string
		location string
		want     string
	}{
		{"other_port", b.url + "/steal", "|||" + bHost + "|/steal"},
		{"other_host_same_port", "http://localhost:" + aPort + "/steal", "|||localhost:" + aPort + "|/steal"},
		{"same_origin_absolute", a.url + "/final", creds + "|" + aHost + "|/final"},
		{"same_origin_host_case", "HTTP://127.0.0.1:" + aPort + "/final", creds + "|127.0.0.1:" + aPort + "|/final"},
		{"same_origin_relative", "final?x=1", creds + "|" + aHost + "|/final?x=1"},
		{"same_origin_network_path", "//" + aHost + "/final", creds + "|" + aHost + "|/final"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			loc.Store(&tc.location)
			cl := &Client{ClientConfig: ClientConfig{MaxRedirects: 2}}
			defer cl.CloseIdleConnections()
			var req Request
			var resp Response
			req.SetURI(a.url + "/login")
			req.Header.Set("Authorization", "Basic dXNlcjpwYXNz")
			req.Header.Set("Proxy-Authorization", "Bearer proxy")
			req.Header.Set("Cookie", "session=SECRET")
			req.Header.Set("X-Other", "kept")
			if err := cl.Do(&req, &resp); err != nil {
				t.Fatal(err)
			}
			if got := string(resp.Body()); got != tc.want {
				t.Fatalf("second server received %q, want %q", got, tc.want)
			}
			if got := string(req.Header.Get("X-Other")); got != "kept" {
				t.Fatalf("X-Other = %q after the redirect, want kept", got)
			}
		})
	}
}

// TestRedirectLocationResolution: Client and HostClient follow a
// Location resolved as RFC 3986 §5.2 says, and refuse schemes other than
// http and https with ErrInvalidURI, leaving the redirect in the response.
func TestRedirectLocationResolution(t *testing.T) {
	var loc atomic.Pointer[string]
	var n atomic.Int64
	h := func(c *Ctx) {
		if n.Add(1) == 1 {
			c.Response.SetStatusCode(302)
			c.Response.Header.Set("Location", *loc.Load())
			return
		}
		credentials(c)
	}
	cs := startClientServer(t, "tcp", h)
	host := strings.TrimPrefix(cs.url, "http://")
	cases := []struct {
		name, from, location string
		wantTarget           string // "": wantErr
		wantErr              error
	}{
		{"query_only", "/qonly", "?q=2", "/qonly?q=2", nil},
		{"relative_path", "/a/x", "b/c", "/a/b/c", nil},
		{"dotdot", "/a/x", "../c", "/c", nil},
		{"dot", "/a/x", "./c", "/a/c", nil},
		{"absolute_path_fragment", "/a/x", "/p?k=v#frag", "/p?k=v", nil},
		{"network_path", "/a/x", "//" + host + "/p", "/p", nil},
		{"absolute_dot_segments", "/a/x", cs.url + "/a/./b/../c", "/a/c", nil},
		{"ftp", "/a/x", "ftp://x/y", "", ErrInvalidURI},
		{"mailto", "/a/x", "mailto:a@b.example", "", ErrInvalidURI},
		{"http_without_authority", "/a/x", "http:g", "", ErrInvalidURI},
		{"space_in_path", "/a/x", "/a b", "/a%20b", nil},
		{"htab_in_path", "/a/x", "/a\tb", "", ErrInvalidURI},
		{"unclosed_ip_literal", "/a/x", "http://[::1/x", "", ErrInvalidURI},
		{"port_too_large", "/a/x", "//h:99999/", "", ErrInvalidURI},
	}
	clients := []struct {
		name string
		do   func(*Request, *Response) error
	}{
		{"Client", (&Client{ClientConfig: ClientConfig{MaxRedirects: 1}}).Do},
		{"HostClient", (&HostClient{Addr: host, ClientConfig: ClientConfig{MaxRedirects: 1}}).Do},
	}
	for _, c := range clients {
		for _, tc := range cases {
			t.Run(c.name+"/"+tc.name, func(t *testing.T) {
				loc.Store(&tc.location)
				n.Store(0)
				var req Request
				var resp Response
				req.SetURI(cs.url + tc.from)
				err := c.do(&req, &resp)
				if tc.wantErr != nil {
					if !errors.Is(err, tc.wantErr) || resp.StatusCode() != 302 || string(req.Target()) != cs.url+tc.from {
						t.Fatalf("err %v, status %d, target %q; want %v, 302, unchanged", err, resp.StatusCode(), req.Target(), tc.wantErr)
					}
					return
				}
				want := "|||" + host + "|" + tc.wantTarget
				if err != nil || string(resp.Body()) != want {
					t.Fatalf("err %v, server received %q, want %q", err, resp.Body(), want)
				}
			})
		}
	}
}

// TestHostClientRedirectOtherOrigin: HostClient does not follow a
// redirect to another origin and leaves the request unchanged.
func TestHostClientRedirectOtherOrigin(t *testing.T) {
	var n atomic.Int64
	cs := startClientServer(t, "tcp", func(c *Ctx) {
		n.Add(1)
		c.Response.SetStatusCode(307)
		c.Response.Header.Set("Location", "http://other.example/p")
	})
	hc := &HostClient{Addr: strings.TrimPrefix(cs.url, "http://"), ClientConfig: ClientConfig{MaxRedirects: 3}}
	defer hc.CloseIdleConnections()
	var req Request
	var resp Response
	req.SetURI(cs.url + "/start")
	req.Header.Set("Authorization", "Basic x")
	if err := hc.Do(&req, &resp); !errors.Is(err, ErrRedirectOtherHost) {
		t.Fatalf("err = %v, want ErrRedirectOtherHost", err)
	}
	if string(req.Target()) != cs.url+"/start" || string(req.Header.Get("Authorization")) != "Basic x" || n.Load() != 1 {
		t.Fatalf("request changed: target %q, Authorization %q, %d requests", req.Target(), req.Header.Get("Authorization"), n.Load())
	}
}

// TestClientRedirectKeepsSetHost: a relative redirect keeps a Host field
// set apart from the URI; an absolute one uses the new authority.
func TestClientRedirectKeepsSetHost(t *testing.T) {
	var loc atomic.Pointer[string]
	var n atomic.Int64
	cs := startClientServer(t, "tcp", func(c *Ctx) {
		if n.Add(1) == 1 {
			c.Response.SetStatusCode(302)
			c.Response.Header.Set("Location", *loc.Load())
			return
		}
		credentials(c)
	})
	host := strings.TrimPrefix(cs.url, "http://")
	for _, tc := range []struct{ name, location, want string }{
		{"relative", "/next", "|||virtual.example|/next"},
		{"absolute", cs.url + "/next", "|||" + host + "|/next"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc.Store(&tc.location)
			n.Store(0)
			cl := &Client{ClientConfig: ClientConfig{MaxRedirects: 1}}
			defer cl.CloseIdleConnections()
			var req Request
			var resp Response
			req.SetURI(cs.url + "/start")
			req.SetHost("virtual.example")
			if err := cl.Do(&req, &resp); err != nil || string(resp.Body()) != tc.want {
				t.Fatalf("%v, server received %q, want %q", err, resp.Body(), tc.want)
			}
		})
	}
}

// FuzzResolveReference compares resolveReference with net/url's
// ResolveReference on references over a small alphabet of path and query
// bytes, from a fixed base, where both accept the reference and redirect
// would follow it. References with empty path segments ("a//b") are left
// out: there net/url departs from RFC 3986 §5.2.4 ("/..//" gives "/" in
// net/url, "//" by the RFC's algorithm, which brisk follows).
func FuzzResolveReference(f *testing.F) {
	for _, s := range []string{"g", "../g", "./../a/./b/..", "?y", "//h/p/../q", "/a/b/../../..", "a/..", ".", "..", "g?x/../y", "http://x/a/../b", "...", "a/.../b", "//h", "//h?q", ""} {
		f.Add(s)
	}
	base, _ := url.Parse("http://a/b/c/d;p?q")
	bt := &target{authority: []byte("a"), origin: []byte("/b/c/d;p?q")}
	f.Fuzz(func(t *testing.T, ref string) {
		for _, c := range []byte(ref) {
			if !strings.ContainsRune("abgh./?;=:", rune(c)) {
				return
			}
		}
		if strings.Contains(strings.TrimPrefix(ref, "//"), "//") || strings.Contains(ref, "/..//") {
			return // empty segments: net/url departs from RFC 3986 §5.2.4 there
		}
		r, err := url.Parse(ref)
		if err != nil || r.Scheme != "" && r.Scheme != "http" || r.Opaque != "" {
			return
		}
		got, _, gerr := resolveReference(nil, bt, []byte(ref))
		if gerr != nil {
			return
		}
		if nt, err := splitURI(got); err != nil || !wire.ValidHost(nt.authority, false) {
			return // redirect refuses it: ErrInvalidURI
		}
		want := base.ResolveReference(r)
		if want.Host == "" {
			return
		}
		w := want.String()
		if string(got) != w {
			t.Fatalf("resolve %q: brisk %q, net/url %q", ref, got, w)
		}
	})
}
