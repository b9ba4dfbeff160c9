package advisories

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
)

// hiddenQuery is "a0=x&a1=x&...&a9999=x&hidden=y": the parameter past
// net/url's limit of 10000 (urlmaxqueryparams) of CVE-2026-39825.
func hiddenQuery() string {
	var b strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&b, "a%d=x&", i)
	}
	b.WriteString("hidden=y")
	return b.String()
}

// TestCVE_2026_39825_NoHiddenParams: net/http/httputil.ReverseProxy
// forwarded query parameters past url.ParseQuery's limit, hidden from the
// Rewrite function that filtered the parsed ones. brisk's Args has no
// count limit (memory is bounded by the request line or body limit, and
// parsing allocates nothing), so a filter built on QueryArgs sees every
// parameter that Raw forwards: the 10001st included, in the query of a
// request served and in Args used directly.
func TestCVE_2026_39825_NoHiddenParams(t *testing.T) {
	q := hiddenQuery()
	var a brisk.Args
	a.Reset([]byte(q))
	if !a.Has("hidden") || string(a.Peek("hidden")) != "y" || a.Len() != 10001 {
		t.Fatalf("Args: Has(hidden)=%v Peek=%q Len=%d, want true, y, 10001", a.Has("hidden"), a.Peek("hidden"), a.Len())
	}
	seen := make(chan string, 1)
	addr, _ := serve(t, &brisk.Server{
		MaxRequestLineBytes: 256 << 10, MaxHeaderBytes: 512 << 10,
		Handler: func(c *brisk.Ctx) {
			n, hidden := 0, ""
			for name, v := range c.Request.QueryArgs().All() {
				n++
				if string(name) == "hidden" {
					hidden = string(v)
				}
			}
			seen <- fmt.Sprint(n, " ", hidden)
		},
	})
	if a := exchange(t, addr, "GET /?"+q+" HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"); a.status != 200 {
		t.Fatalf("status %d", a.status)
	}
	if got := <-seen; got != "10001 y" {
		t.Errorf("the handler saw %q parameters, want \"10001 y\"", got)
	}
}

// postForm sends a POST of an urlencoded body to addr and returns the
// answer; the handler runs check on the request.
func postForm(t *testing.T, s *brisk.Server, body string) answer {
	t.Helper()
	addr, _ := serve(t, s)
	nc := dial(t, addr)
	go io.WriteString(nc, fmt.Sprintf("POST / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n"+
		"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
	return readAnswer(t, nc)
}
