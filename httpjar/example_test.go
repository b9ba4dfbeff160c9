package httpjar_test

import (
	"context"
	"fmt"
	"net/http/cookiejar"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/httpjar"
)

// ExampleNew keeps a session cookie across requests with
// net/http/cookiejar (give it a public-suffix list, such as
// golang.org/x/net/publicsuffix, for real sites).
func ExampleNew() {
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		if string(c.Request.Path()) == "/login" {
			c.Response.Header.Add("Set-Cookie", "session=abc123; Path=/")
			return
		}
		fmt.Fprintf(&c.Response, "Cookie: %s", c.Request.Header.Get("Cookie"))
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	j, _ := cookiejar.New(nil)
	c := brisk.Client{ClientConfig: brisk.ClientConfig{Jar: httpjar.New(j), Dial: ln.DialContext}}
	var req brisk.Request
	var resp brisk.Response
	for _, path := range []string{"/login", "/profile"} {
		req.SetURI("http://app.example/" + path[1:])
		if err := c.Do(&req, &resp); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println(string(resp.Body()))
	// Output:
	// Cookie: session=abc123
}
