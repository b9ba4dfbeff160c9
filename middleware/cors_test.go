package middleware

import (
	"net/http"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestCORS: actual requests and preflights per the Fetch standard, over
// HTTP/1.1 and h2, around a brisk handler and a FromHTTP one.
func TestCORS(t *testing.T) {
	cfg := CORSConfig{
		AllowOrigins:  []string{"https://app.example"},
		AllowMethods:  []string{"PUT", "DELETE"},
		AllowHeaders:  []string{"X-Token", "Content-Type"},
		ExposeHeaders: []string{"X-Total"},
		MaxAge:        10 * time.Minute,
	}
	nethttp := brisk.FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	for name, h := range map[string]brisk.Handler{"brisk": ok, "FromHTTP": nethttp} {
		t.Run(name, func(t *testing.T) {
			protocols(t, func() *brisk.Server { return &brisk.Server{Handler: CORS(cfg)(h)} }, func(t *testing.T, c *http.Client, base string) {
				cases := []struct {
					name, method string
					fields       []string
					status       int
					want         map[string]string // "" means absent
				}{
					{"no_origin", "GET", nil, 200, map[string]string{"Access-Control-Allow-Origin": "", "Vary": "Origin"}}, // Fetch: "CORS protocol and HTTP caches"
					{"allowed", "GET", []string{"Origin: https://app.example"}, 200, map[string]string{
						"Access-Control-Allow-Origin": "https://app.example", "Access-Control-Expose-Headers": "X-Total", "Vary": "Origin"}},
					{"other_origin", "GET", []string{"Origin: https://evil.example"}, 200, map[string]string{
						"Access-Control-Allow-Origin": "", "Vary": "Origin"}},
					{"preflight", "OPTIONS", []string{"Origin: https://app.example", "Access-Control-Request-Method: PUT", "Access-Control-Request-Headers: x-token, content-type"}, 204, map[string]string{
						"Access-Control-Allow-Origin": "https://app.example", "Access-Control-Allow-Methods": "PUT",
						"Access-Control-Allow-Headers": "x-token, content-type", "Access-Control-Max-Age": "600", "Access-Control-Expose-Headers": ""}},
					{"preflight_bad_method", "OPTIONS", []string{"Origin: https://app.example", "Access-Control-Request-Method: PATCH"}, 204, map[string]string{
						"Access-Control-Allow-Origin": "", "Access-Control-Allow-Methods": ""}},
					{"preflight_bad_field", "OPTIONS", []string{"Origin: https://app.example", "Access-Control-Request-Method: PUT", "Access-Control-Request-Headers: X-Other"}, 204, map[string]string{
						"Access-Control-Allow-Origin": "", "Access-Control-Allow-Headers": ""}},
					{"preflight_bad_origin", "OPTIONS", []string{"Origin: https://evil.example", "Access-Control-Request-Method: GET"}, 204, map[string]string{
						"Access-Control-Allow-Origin": "", "Access-Control-Allow-Methods": ""}},
					{"plain_options", "OPTIONS", []string{"Origin: https://app.example"}, 200, map[string]string{
						"Access-Control-Allow-Origin": "https://app.example"}},
				}
				for _, tc := range cases {
					resp, _ := send(t, c, tc.method, base+"/", tc.fields...)
					if resp.StatusCode != tc.status {
						t.Errorf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.status)
					}
					for k, v := range tc.want {
						if got := resp.Header.Get(k); got != v {
							t.Errorf("%s: %s %q, want %q", tc.name, k, got, v)
						}
					}
				}
			})
		})
	}
}

// TestCORSAnyOrigin: "*" answers "*" without credentials and Vary; with
// credentials it echoes the origin, never "*" (Fetch standard).
func TestCORSAnyOrigin(t *testing.T) {
	for _, cred := range []bool{false, true} {
		var c brisk.Ctx
		c.Request.Header.Set("Origin", "https://x.example")
		CORS(CORSConfig{AllowOrigins: []string{"*"}, AllowCredentials: cred})(ok)(&c)
		h := &c.Response.Header
		want, vary, creds := "*", "", ""
		if cred {
			want, vary, creds = "https://x.example", "Origin", "true"
		}
		if string(h.Get("Access-Control-Allow-Origin")) != want || string(h.Get("Vary")) != vary ||
			string(h.Get("Access-Control-Allow-Credentials")) != creds {
			t.Errorf("credentials %v: ACAO %q Vary %q ACAC %q", cred, h.Get("Access-Control-Allow-Origin"), h.Get("Vary"), h.Get("Access-Control-Allow-Credentials"))
		}
	}
}

// TestCORSPreflightSafelistedName: a browser names a CORS-safelisted
// field in Access-Control-Request-Headers only when its value is not
// safelisted (Content-Type: application/json), and then needs the server
// to allow it (Fetch standard, CORS-preflight fetch): without
// Content-Type in AllowHeaders the preflight fails.
func TestCORSPreflightSafelistedName(t *testing.T) {
	cfg := CORSConfig{AllowOrigins: []string{"https://app.example"}, AllowMethods: []string{"PUT"}, AllowHeaders: []string{"X-Token"}}
	protocols(t, func() *brisk.Server { return &brisk.Server{Handler: CORS(cfg)(ok)} }, func(t *testing.T, c *http.Client, base string) {
		resp, _ := send(t, c, "OPTIONS", base+"/", "Origin: https://app.example",
			"Access-Control-Request-Method: PUT", "Access-Control-Request-Headers: content-type")
		if resp.StatusCode != 204 || resp.Header.Get("Access-Control-Allow-Origin") != "" || resp.Header.Get("Access-Control-Allow-Headers") != "" {
			t.Errorf("%d ACAO %q ACAH %q; want 204 without either", resp.StatusCode,
				resp.Header.Get("Access-Control-Allow-Origin"), resp.Header.Get("Access-Control-Allow-Headers"))
		}
	})
}
