//go:build !race

package brisk

import "testing"

// TestRequestAllocs holds the budget of the request accessors in a
// keep-alive exchange: none once the per-connection buffers have grown.
func TestRequestAllocs(t *testing.T) {
	cases := []struct{ name, target string }{
		{"clean_path", "/catalog/item.php?id=81273&q=caf%C3%A9+au+lait"},
		{"decoded_path", "/catalog/../a%2Fb//item.php?id=81273&q=caf%C3%A9+au+lait"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := "GET " + tc.target + " HTTP/1.1\r\nHost: example.com\r\n" +
				"Cookie: session=4f1c2a9e7b3d8e60; theme=dark\r\nCookie: consent=no\r\n\r\n"
			h := func(c *Ctx) {
				r := &c.Request
				if len(r.Path()) == 0 || string(r.QueryArgs().Peek("q")) != "café au lait" ||
					string(r.QueryArgs().Peek("id")) != "81273" || string(r.Cookie("consent")) != "no" ||
					string(r.Cookie("theme")) != "dark" || r.Proto() != "HTTP/1.1" || string(r.Host()) != "example.com" {
					panic("accessors")
				}
				c.Response.SetBodyString("ok")
			}
			step := stepServer(t, []byte(req), h)
			step()
			step()
			if n := testing.AllocsPerRun(200, func() { step() }); n != 0 {
				t.Fatalf("%v allocs per request, want 0", n)
			}
		})
	}
}

// TestSetCookieAllocs: Response.SetCookie reuses the Header's storage.
func TestSetCookieAllocs(t *testing.T) {
	var r Response
	c := &SetCookie{Name: "sid", Value: "4f1c2a9e", Path: "/", Secure: true, HttpOnly: true, SameSite: SameSiteStrict, MaxAge: 3600}
	r.SetCookie(c)
	if n := testing.AllocsPerRun(100, func() {
		r.Reset()
		if err := r.SetCookie(c); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("%v allocs, want 0", n)
	}
}
