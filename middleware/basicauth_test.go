package middleware

import (
	"encoding/base64"
	"net/http"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestBasicAuth: right credentials pass with the user-id given to the
// handler; wrong, missing or malformed ones get 401 with the challenge,
// through the ErrorHandler; over HTTP/1.1 and h2.
func TestBasicAuth(t *testing.T) {
	basic := func(s string) string { return "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(s)) }
	protocols(t, func() *brisk.Server {
		h := BasicAuth("admin area", map[string]string{"Aladdin": "open sesame", "bob": "pw:with:colons"})(func(c *brisk.Ctx) {
			c.Response.SetBodyString("hello " + BasicAuthUser(c))
		})
		return &brisk.Server{Handler: h, ErrorHandler: func(c *brisk.Ctx, code int, err error) { c.Response.SetBodyString("denied") }}
	}, func(t *testing.T, c *http.Client, base string) {
		for _, tc := range []struct {
			name   string
			fields []string
			status int
			body   string
		}{
			{"rfc7617_example", []string{"Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="}, 200, "hello Aladdin"},
			{"lower_scheme", []string{"Authorization: basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="}, 200, "hello Aladdin"},
			{"colons_in_password", []string{basic("bob:pw:with:colons")}, 200, "hello bob"},
			{"wrong_password", []string{basic("Aladdin:open sesamE")}, 401, "denied"},
			{"swapped_users", []string{basic("bob:open sesame")}, 401, "denied"},
			{"unknown_user", []string{basic("eve:open sesame")}, 401, "denied"},
			{"missing", nil, 401, "denied"},
			{"no_colon", []string{basic("Aladdin")}, 401, "denied"},
			{"bad_base64", []string{"Authorization: Basic %%%"}, 401, "denied"},
			{"other_scheme", []string{"Authorization: Bearer QWxhZGRpbjpvcGVuIHNlc2FtZQ=="}, 401, "denied"},
		} {
			resp, body := send(t, c, "GET", base+"/", tc.fields...)
			if resp.StatusCode != tc.status || body != tc.body {
				t.Errorf("%s: %d %q, want %d %q", tc.name, resp.StatusCode, body, tc.status, tc.body)
			}
			if want := `Basic realm="admin area", charset="UTF-8"`; tc.status == 401 && resp.Header.Get("WWW-Authenticate") != want {
				t.Errorf("%s: WWW-Authenticate %q", tc.name, resp.Header.Get("WWW-Authenticate"))
			}
		}
	})
}
