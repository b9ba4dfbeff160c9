package httpjar_test

import (
	"context"
	"fmt"
	"go/build"
	"net"
	"net/http/cookiejar"
	"slices"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/httpjar"
)

// cookieServer: /login sets sid=1 (Path=/) and redirects to /home; every
// other path answers with the Cookie field received.
func cookieServer(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &brisk.Server{Handler: func(c *brisk.Ctx) {
		if string(c.Request.Path()) == "/login" {
			c.Response.Header.Add("Set-Cookie", "sid=1; Path=/; HttpOnly")
			c.Response.Header.Add("Set-Cookie", "bad cookie")
			c.Response.Header.Set("Location", "/home")
			c.Response.SetStatusCode(302)
			return
		}
		fmt.Fprintf(&c.Response, "cookie=%q", c.Request.Header.Get("Cookie"))
	}}
	go s.Serve(ln)
	t.Cleanup(func() { s.Shutdown(context.Background()) })
	return ln.Addr().String()
}

// TestJarRoundTrip: a cookie set by a redirect is stored and sent on the
// request that follows it, merged with the request's own Cookie field
// after, and not sent to another host.
func TestJarRoundTrip(t *testing.T) {
	addr := cookieServer(t)
	port := addr[strings.LastIndexByte(addr, ':'):]
	j, _ := cookiejar.New(nil)
	c := brisk.Client{ClientConfig: brisk.ClientConfig{Jar: httpjar.New(j), MaxRedirects: 3}}
	cases := []struct{ name, uri, own, want string }{
		{"redirect_carries_cookie", "http://" + addr + "/login", "", `cookie="sid=1"`},
		{"merged_with_own", "http://" + addr + "/whoami", "mine=2", `cookie="mine=2; sid=1"`},
		{"other_host", "http://localhost" + port + "/whoami", "", `cookie=""`},
	}
	for _, tc := range cases {
		var req brisk.Request
		var resp brisk.Response
		req.SetURI(tc.uri)
		if tc.own != "" {
			req.Header.Set("Cookie", tc.own)
		}
		if err := c.Do(&req, &resp); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := string(resp.Body()); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestPackageDocImportClaim: the package doc says package brisk imports
// net/http, so keeping this adapter apart saves no linking. Should brisk
// stop importing net/http, the doc (and CookieJar's) must say so.
func TestPackageDocImportClaim(t *testing.T) {
	pkg, err := build.ImportDir("..", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(pkg.Imports, "net/http") {
		t.Error("package brisk no longer imports net/http: update the package doc, which says it does")
	}
}
