//go:build !race

package advisories

import (
	"fmt"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestCVE_2025_58186_CookieFlood: net/http parsed every cookie of a
// request into a slice, without a count limit (a=; repeated). A Cookie
// field of 21 000 empty cookies (the 64 KiB head limit) costs brisk no
// allocation to iterate or search: the pairs are read in place.
func TestCVE_2025_58186_CookieFlood(t *testing.T) {
	const n = 21000
	result := make(chan string, 1)
	addr, _ := serve(t, &brisk.Server{Handler: func(c *brisk.Ctx) {
		count := 0
		allocs := fewestAllocs(5, func() {
			count = 0
			for range c.Request.Cookies() {
				count++
			}
			_ = c.Request.Cookie("missing")
		})
		result <- fmt.Sprint(count, " cookies, ", allocs, " allocations")
	}})
	raw := "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\nCookie: " + strings.Repeat("a=;", n) + "\r\n\r\n"
	if a := exchange(t, addr, raw); a.status != 200 {
		t.Fatalf("status %d", a.status)
	}
	if got, want := <-result, fmt.Sprint(n, " cookies, 0 allocations"); got != want {
		t.Errorf("%s, want %s", got, want)
	}
}

// TestCVE_2025_61726_FormParamFlood: net/http's ParseForm built a map of
// every parameter of an urlencoded body, without a count limit. A 3 MiB
// body of 1 000 000 parameters (under MaxBodyBytes, 4 MiB) costs brisk
// no allocation to count, search or iterate once read.
func TestCVE_2025_61726_FormParamFlood(t *testing.T) {
	const n = 1000000
	result := make(chan string, 1)
	s := &brisk.Server{Handler: func(c *brisk.Ctx) {
		args, err := c.Request.PostArgs()
		if err != nil {
			result <- err.Error()
			return
		}
		count := 0
		allocs := fewestAllocs(2, func() {
			count = args.Len()
			_ = args.Peek("missing")
			for range args.All() {
			}
		})
		result <- fmt.Sprint(count, " parameters, ", allocs, " allocations")
	}}
	if a := postForm(t, s, strings.Repeat("a=&", n)); a.status != 200 {
		t.Fatalf("status %d", a.status)
	}
	if got, want := <-result, fmt.Sprint(n, " parameters, 0 allocations"); got != want {
		t.Errorf("%s, want %s", got, want)
	}
}

// fewestAllocs is the fewest of three testing.AllocsPerRun(runs, f):
// AllocsPerRun counts every goroutine's allocations, and a server of an
// earlier test may still be closing down.
func fewestAllocs(runs int, f func()) float64 {
	least := testing.AllocsPerRun(runs, f)
	for range 2 {
		least = min(least, testing.AllocsPerRun(runs, f))
	}
	return least
}
