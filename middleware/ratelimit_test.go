package middleware

import (
	"net/http"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// fakeClock is a settable time source.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeClock) now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.t }
func (f *fakeClock) add(d time.Duration) {
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.mu.Unlock()
}

// TestRateLimit: a burst of 3 at 1/s: three requests pass, the fourth is
// answered 429 through the ErrorHandler with Retry-After and the
// RateLimit fields; a second later one passes again; over HTTP/1.1 and
// h2.
func TestRateLimit(t *testing.T) {
	protocols(t, func() *brisk.Server {
		clock := &fakeClock{t: time.Unix(1e9, 0)}
		h := RateLimit(RateLimitConfig{Rate: 1, Burst: 3, Now: clock.now})(ok)
		return &brisk.Server{Handler: func(c *brisk.Ctx) {
			if string(c.Request.Path()) == "/tick" {
				clock.add(time.Second)
			}
			h(c)
		}, ErrorHandler: func(c *brisk.Ctx, code int, err error) { c.Response.SetBodyString(err.Error()) }}
	}, func(t *testing.T, c *http.Client, base string) {
		for i, want := range []struct {
			status            int
			limit, retryAfter string
		}{
			{200, `"default";r=2;t=1`, ""},
			{200, `"default";r=1;t=2`, ""},
			{200, `"default";r=0;t=3`, ""},
			{429, `"default";r=0;t=3`, "1"},
		} {
			resp, body := send(t, c, "GET", base+"/")
			if resp.StatusCode != want.status || resp.Header.Get("RateLimit") != want.limit ||
				resp.Header.Get("Retry-After") != want.retryAfter || resp.Header.Get("RateLimit-Policy") != `"default";q=3;w=3` {
				t.Errorf("request %d: %d RateLimit %q Retry-After %q Policy %q, want %+v", i, resp.StatusCode,
					resp.Header.Get("RateLimit"), resp.Header.Get("Retry-After"), resp.Header.Get("RateLimit-Policy"), want)
			}
			if want.status == 429 && body != ErrRateLimited.Error() {
				t.Errorf("429 body %q, want the ErrorHandler's", body)
			}
		}
		if resp, _ := send(t, c, "GET", base+"/tick"); resp.StatusCode != 200 {
			t.Errorf("after a second: %d, want 200", resp.StatusCode)
		}
	})
}

// TestRateLimitKeysBounded: MaxKeys bounds the keys tracked; refilled
// buckets are forgotten first.
func TestRateLimitKeysBounded(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	n := 0
	l := newLimiter(RateLimitConfig{Rate: 10, Burst: 1, MaxKeys: 4, Now: clock.now,
		Key: func(dst []byte, c *brisk.Ctx) []byte { n++; return append(dst, byte(n)) }})
	for range 10 {
		var c brisk.Ctx
		l.admit(&c)
	}
	if len(l.buckets) > 4 {
		t.Errorf("%d keys tracked, want at most 4", len(l.buckets))
	}
}

// TestRateLimitIPv6Prefix: by default an IPv6 client is limited by its
// /64, which one host holds whole (RFC 7421 §2): new addresses in it do
// not buy new buckets; another /64 and IPv4 addresses get their own.
func TestRateLimitIPv6Prefix(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	protocols(t, func() *brisk.Server {
		return &brisk.Server{TrustedProxies: trusted, Handler: RateLimit(RateLimitConfig{Rate: 1e-3, Burst: 1})(ok)}
	}, func(t *testing.T, c *http.Client, base string) {
		for _, tc := range []struct {
			client string
			status int
		}{
			{"2001:db8::1", 200},
			{"2001:db8::2", 429},
			{"2001:db8::ffff:1:2", 429},
			{"2001:db8:0:1::1", 200},
			{"192.0.2.1", 200},
			{"192.0.2.2", 200},
		} {
			if resp, _ := send(t, c, "GET", base+"/", "X-Forwarded-For: "+tc.client); resp.StatusCode != tc.status {
				t.Errorf("client %s: %d, want %d", tc.client, resp.StatusCode, tc.status)
			}
		}
	})
}
