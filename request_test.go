package brisk

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// echoTarget answers with what the Request reports about the target.
func echoTarget(c *Ctx) {
	r := &c.Request
	fmt.Fprintf(&c.Response, "path=%s raw=%s query=%s host=%s proto=%s",
		r.Path(), r.RawPath(), r.Query(), r.Host(), r.Proto())
}

func TestRequestTarget(t *testing.T) {
	cases := []struct {
		name, req, want string
	}{
		{"dot_dot_encoded", get("/a/%2e%2e/b"), "path=/b raw=/a/%2e%2e/b query= host=x proto=HTTP/1.1"},
		{"climb_above_root", get("/../../etc/passwd"), "path=/etc/passwd raw=/../../etc/passwd query= host=x proto=HTTP/1.1"},
		{"double_slash", get("//a//b?x=1"), "path=/a/b raw=//a//b query=x=1 host=x proto=HTTP/1.1"},
		{"utf8", get("/caf%C3%A9"), "path=/café raw=/caf%C3%A9 query= host=x proto=HTTP/1.1"},
		{"plain", get("/a/b.txt?q"), "path=/a/b.txt raw=/a/b.txt query=q host=x proto=HTTP/1.1"},
		{"absolute_form", "GET http://Example.com:8080/p%41?z HTTP/1.1\r\nHost: other\r\n\r\n",
			"path=/pA raw=/p%41 query=z host=Example.com:8080 proto=HTTP/1.1"},
		{"absolute_form_no_path", "GET http://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n",
			"path=/ raw=/ query= host=example.com proto=HTTP/1.1"},
		{"asterisk", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", "path=* raw=* query= host=x proto=HTTP/1.1"},
		{"http10", "GET /old HTTP/1.0\r\n\r\n", "path=/old raw=/old query= host= proto=HTTP/1.0"},
		{"http12", "GET /new HTTP/1.2\r\nHost: x\r\n\r\n", "path=/new raw=/new query= host=x proto=HTTP/1.2"},
		// Octets that would change the structure stay encoded (RFC 3986 §6.2.2.2).
		{"encoded_nul_kept", get("/a%00b"), "path=/a%00b raw=/a%00b query= host=x proto=HTTP/1.1"},
		{"encoded_crlf_kept", get("/a%0d%0Ab"), "path=/a%0D%0Ab raw=/a%0d%0Ab query= host=x proto=HTTP/1.1"},
		{"encoded_backslash_kept", get("/a%5C..%5Cb"), "path=/a%5C..%5Cb raw=/a%5C..%5Cb query= host=x proto=HTTP/1.1"},
		{"encoded_slash_kept", get("/public/..%2Fadmin"), "path=/public/..%2Fadmin raw=/public/..%2Fadmin query= host=x proto=HTTP/1.1"},
	}
	ts := startServer(t, "inmemory", &Server{Handler: echoTarget})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := ts.connect()
			resp, body := c.roundTrip(tc.req)
			if resp.StatusCode != 200 || body != tc.want {
				t.Fatalf("got %d %q, want %q", resp.StatusCode, body, tc.want)
			}
		})
	}
}

func TestRequestBadPath(t *testing.T) {
	cases := []struct{ name, target string }{
		{"bad_escape", "/%zz"},   // refused by the request-line parser
		{"short_escape", "/a%4"}, // likewise
		{"bad_escape_before_query", "/a%zz?d=100%"},
		{"raw_backslash", "/a\\b"}, // ErrPathByte
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			called := false
			ts := startServer(t, "inmemory", &Server{Handler: func(c *Ctx) { called = true }})
			c := ts.connect()
			resp, _ := c.roundTrip(get(tc.target))
			if resp.StatusCode != 400 || called {
				t.Fatalf("status %d, handler called %v; want 400 without the handler", resp.StatusCode, called)
			}
			c.expectClosed()
		})
	}
}

// TestRequestQueryBarePercent sends the query Chromium sends for a typed
// "?d=100%": a "%" in the query without two hex digits reaches the handler
// as a literal byte, in the raw query and in the decoded QueryArgs.
func TestRequestQueryBarePercent(t *testing.T) {
	forTransports(t, func(t *testing.T, transport string) {
		ts := startServer(t, transport, &Server{Handler: func(c *Ctx) {
			q := c.Request.QueryArgs()
			fmt.Fprintf(&c.Response, "query=%s d=%s e=%s", c.Request.Query(), q.Peek("d"), q.Peek("e"))
		}})
		c := ts.connect()
		resp, got := c.roundTrip("GET /stats?d=100%&e=%zz%41%4 HTTP/1.1\r\nHost: x\r\n\r\n")
		if want := "query=d=100%&e=%zz%41%4 d=100% e=%zzA%4"; resp.StatusCode != 200 || got != want {
			t.Fatalf("got %d %q, want 200 %q", resp.StatusCode, got, want)
		}
		c.expectOpen()
	})
}

func TestRequestQueryAndPostArgs(t *testing.T) {
	ts := startServer(t, "inmemory", &Server{Handler: func(c *Ctx) {
		post, err := c.Request.PostArgs()
		if err != nil {
			c.Response.SetStatusCode(ErrorStatus(err))
			return
		}
		q := c.Request.QueryArgs()
		fmt.Fprintf(&c.Response, "q=%s name=%s n=%d", q.Peek("q"), post.Peek("name"), post.Len())
	}})
	c := ts.connect()
	body := "name=J%C3%BCrgen+M&x=1&x=2"
	_, got := c.roundTrip("POST /f?q=a+b%21 HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded; charset=utf-8\r\n" +
		fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
	if want := "q=a b! name=Jürgen M n=3"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	_, got = c.roundTrip("POST /f HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nname=a")
	if want := "q= name= n=0"; got != want {
		t.Fatalf("not a form: got %q, want %q", got, want)
	}
}

func TestRequestCookiesAndSetCookie(t *testing.T) {
	ts := startServer(t, "inmemory", &Server{Handler: func(c *Ctx) {
		var all []string
		for n, v := range c.Request.Cookies() {
			all = append(all, string(n)+"="+string(v))
		}
		fmt.Fprintf(&c.Response, "sid=%s theme=%s all=%s", c.Request.Cookie("sid"), c.Request.Cookie("theme"),
			strings.Join(all, ","))
		if err := c.Response.SetCookie(&SetCookie{Name: "sid", Value: "new", Path: "/", HttpOnly: true, Secure: true,
			SameSite: SameSiteLax}); err != nil {
			panic(err)
		}
		if err := c.Response.SetCookie(&SetCookie{Name: "evil", Value: "a\r\nX-Injected: 1"}); err != ErrCookieValue {
			panic(fmt.Sprint("injection accepted: ", err))
		}
		if err := c.Response.SetCookie(&SetCookie{Name: "bad;name", Value: "v"}); err != ErrCookieName {
			panic(fmt.Sprint("bad name accepted: ", err))
		}
	}})
	c := ts.connect()
	resp, body := c.roundTrip("GET / HTTP/1.1\r\nHost: x\r\nCookie: sid=abc; bad name=1; theme=\"dark\"\r\nCookie: sid=second; lang=en\r\n\r\n")
	if want := "sid=abc theme=dark all=sid=abc,theme=dark,sid=second,lang=en"; body != want {
		t.Fatalf("body %q, want %q", body, want)
	}
	sc := resp.Header.Values("Set-Cookie")
	if len(sc) != 1 || sc[0] != "sid=new; Path=/; Secure; HttpOnly; SameSite=Lax" || resp.Header.Get("X-Injected") != "" {
		t.Fatalf("Set-Cookie %q", sc)
	}
	// The client side reads it back.
	var got SetCookie
	if err := ParseSetCookie([]byte(sc[0]), &got); err != nil || got.Name != "sid" || got.Value != "new" ||
		!got.Secure || !got.HttpOnly || got.SameSite != SameSiteLax || got.Path != "/" {
		t.Fatalf("ParseSetCookie: %+v, %v", got, err)
	}
}

func TestRequestMultipartFormCleanup(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var tmpName string
	ts := startServer(t, "inmemory", &Server{Handler: func(c *Ctx) {
		form, err := c.Request.MultipartForm(MultipartLimits{MaxMemoryBytes: 16})
		if err != nil {
			c.Response.SetStatusCode(ErrorStatus(err))
			return
		}
		fh := form.File["upload"][0]
		f, err := fh.Open()
		if err != nil {
			panic(err)
		}
		if osf, ok := f.(*os.File); ok {
			tmpName = osf.Name()
		}
		f.Close()
		fmt.Fprintf(&c.Response, "f0=%s size=%d", form.Value["f0"][0], fh.Size)
	}})
	body, boundary := multipartBody(t, 2, 4096)
	c := ts.connect()
	resp, got := c.roundTrip("POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=" + boundary +
		fmt.Sprintf("\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
	if resp.StatusCode != 200 || got != "f0=value 0 size=4096" {
		t.Fatalf("got %d %q", resp.StatusCode, got)
	}
	if tmpName == "" || filepath.Dir(tmpName) != tmp {
		t.Fatalf("file not on disk in %s: %q", tmp, tmpName)
	}
	if _, err := os.Stat(tmpName); !os.IsNotExist(err) {
		t.Fatalf("temporary file %s still there after the handler returned: %v", tmpName, err)
	}

	resp, _ = c.roundTrip("POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi")
	if resp.StatusCode != 415 {
		t.Fatalf("not multipart: status %d, want 415", resp.StatusCode)
	}
}
