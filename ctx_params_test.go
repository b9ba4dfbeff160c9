package brisk

import (
	"fmt"
	"strings"
	"testing"
)

// TestCtxSetParam checks the seam a router uses: a part of the path is
// kept as offsets (Param returns a slice of Path), any other value is
// copied, a name set again reads back its last value, an empty value is
// not an absent one, more parameters than the inline storage are kept,
// and ResetRoute forgets them and the pattern.
func TestCtxSetParam(t *testing.T) {
	var c Ctx
	c.Request.SetTarget("/users/ada/files/a%2Fb")
	c.Request.SetHost("h")
	path := c.Request.Path()
	seg := path[len("/users/") : len("/users/")+len("ada")]
	c.SetParam("user", seg)
	if got := c.Param("user"); string(got) != "ada" || &got[0] != &path[len("/users/")] {
		t.Errorf("path part: %q, not aliasing Path", got)
	}
	own := []byte("a/b")
	c.SetParam("file", own)
	own[0] = 'x'
	if got := c.Param("file"); string(got) != "a/b" {
		t.Errorf("copied value: %q after the caller's change", got)
	}
	capped := path[1:6:6] // "users", its capacity cut: copied, same value
	c.SetParam("capped", capped)
	if got := c.Param("capped"); string(got) != "users" {
		t.Errorf("capped part: %q", got)
	}
	c.SetParam("user", []byte("bob"))
	if got := c.Param("user"); string(got) != "bob" {
		t.Errorf("replaced: %q", got)
	}
	c.SetParam("empty", nil)
	c.SetParam("emptyPart", path[3:3])
	for _, n := range []string{"empty", "emptyPart"} {
		if got := c.Param(n); got == nil || len(got) != 0 {
			t.Errorf("%s: %q (nil %v), want empty, not nil", n, got, got == nil)
		}
	}
	if c.Param("none") != nil {
		t.Error("absent parameter not nil")
	}
	for i := range 2 * inlineParams {
		c.SetParam(fmt.Sprint("p", i), path[i:i+1])
	}
	for i := range 2 * inlineParams {
		if got := c.Param(fmt.Sprint("p", i)); string(got) != string(path[i:i+1]) {
			t.Errorf("p%d = %q, want %q", i, got, path[i:i+1])
		}
	}
	if n := len(c.route.params); n != 6+2*inlineParams {
		t.Errorf("%d parameters stored", n)
	}
	c.SetRoute("/users/{user}")
	c.ResetRoute()
	if c.Param("user") != nil || c.Param("file") != nil || c.Pattern() != "" || cap(c.route.params) == 0 {
		t.Errorf("after ResetRoute: user %q, file %q, pattern %q, storage dropped %v",
			c.Param("user"), c.Param("file"), c.Pattern(), cap(c.route.params) == 0)
	}
	c.SetParam("user", seg)
	if got := c.Param("user"); string(got) != "ada" {
		t.Errorf("after ResetRoute, set again: %q", got)
	}
}

// TestCtxSetPathParams checks the bulk seam: the values are the parts of
// the path between the bounds (Param aliases Path), they add to those set
// before (the last set wins), more than the inline storage are kept, and
// bounds outside the path panic.
func TestCtxSetPathParams(t *testing.T) {
	var c Ctx
	c.Request.SetTarget("/repos/brisk/router/git/7d2f4d1")
	path := c.Request.Path()
	c.SetParam("repo", []byte("outer"))
	c.SetPathParams([]string{"owner", "repo", "sha"}, [][2]int{{7, 12}, {13, 19}, {24, 31}})
	for name, want := range map[string]string{"owner": "brisk", "repo": "router", "sha": "7d2f4d1"} {
		if got := c.Param(name); string(got) != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if got := c.Param("owner"); &got[0] != &path[7] {
		t.Error("value not aliasing Path")
	}
	names := make([]string, 2*inlineParams)
	bounds := make([][2]int, len(names))
	for i := range names {
		names[i], bounds[i] = fmt.Sprint("p", i), [2]int{i, i + 1}
	}
	c.SetPathParams(names, bounds)
	for i, name := range names {
		if got := c.Param(name); string(got) != string(path[i:i+1]) {
			t.Errorf("%s = %q, want %q", name, got, path[i:i+1])
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("bounds past the path did not panic")
		}
	}()
	c.SetPathParams([]string{"x"}, [][2]int{{3, len(path) + 1}})
}

// TestCtxParamsCleared: parameters set during a request, parts of the
// path or copies, are gone in the next request on the connection; on the
// server side, SetPathParams reads the path the server computed.
func TestCtxParamsCleared(t *testing.T) {
	h := func(c *Ctx) {
		b := &strings.Builder{}
		fmt.Fprintf(b, "%v %v %v %q", c.Param("a") == nil, c.Param("b") == nil, c.Param("c") == nil, c.Pattern())
		c.SetParam("a", c.Request.Path()[1:])
		c.SetParam("b", []byte("copy"))
		c.SetPathParams([]string{"c"}, [][2]int{{1, 3}}) // the path the server computed
		c.SetRoute("/{a}")
		fmt.Fprintf(b, " %s %s %s", c.Param("a"), c.Param("b"), c.Param("c"))
		c.Response.SetBodyString(b.String())
	}
	ts := startServer(t, "inmemory", &Server{Handler: h})
	cl := ts.connect()
	for i := range 2 {
		if _, body := cl.roundTrip("GET /xy HTTP/1.1\r\nHost: h\r\n\r\n"); body != `true true true "" xy copy xy` {
			t.Fatalf("request %d: %s", i, body)
		}
	}
}
