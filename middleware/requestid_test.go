package middleware

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestRequestID: a new 32-hex-digit ID per request, on the request (for
// the handler) and the response; a valid incoming ID kept only with
// TrustIncoming; an invalid one replaced; over HTTP/1.1 and h2.
func TestRequestID(t *testing.T) {
	hexID := regexp.MustCompile(`^[0-9a-f]{32}$`)
	for _, trust := range []bool{false, true} {
		protocols(t, func() *brisk.Server {
			return &brisk.Server{Handler: RequestID(RequestIDConfig{TrustIncoming: trust})(func(c *brisk.Ctx) {
				c.Response.Write(c.Request.Header.Get("X-Request-ID"))
			})}
		}, func(t *testing.T, c *http.Client, base string) {
			resp, body := send(t, c, "GET", base+"/")
			id := resp.Header.Get("X-Request-ID")
			if !hexID.MatchString(id) || body != id {
				t.Errorf("new ID %q, handler saw %q", id, body)
			}
			resp2, _ := send(t, c, "GET", base+"/")
			if resp2.Header.Get("X-Request-ID") == id {
				t.Error("two requests got the same ID")
			}
			resp, body = send(t, c, "GET", base+"/", "X-Request-ID: edge-42.a_b:c")
			if got := resp.Header.Get("X-Request-ID"); (got == "edge-42.a_b:c") != trust || body != got {
				t.Errorf("trust %v: incoming ID answered %q, handler saw %q", trust, got, body)
			}
			resp, _ = send(t, c, "GET", base+"/", "X-Request-ID: bad id")
			if got := resp.Header.Get("X-Request-ID"); !hexID.MatchString(got) {
				t.Errorf("invalid incoming ID answered %q, want a new one", got)
			}
		})
	}
}

// TestGetRequestID: GetRequestID finds the ID under the configured field.
func TestGetRequestID(t *testing.T) {
	var c brisk.Ctx
	got := ""
	RequestID(RequestIDConfig{Field: "Request-Id"})(func(c *brisk.Ctx) { got = string(GetRequestID(c, "Request-Id")) })(&c)
	if len(got) != 32 || GetRequestID(&c, "") != nil {
		t.Errorf("GetRequestID %q; default field %q", got, GetRequestID(&c, ""))
	}
}

// TestRequestIDDuplicate: with TrustIncoming, a request with two IDs
// (the proxy's and the client's own) gets a new one, and the handler
// and what it forwards see that one alone, not the unchecked second.
func TestRequestIDDuplicate(t *testing.T) {
	hexID := regexp.MustCompile(`^[0-9a-f]{32}$`)
	protocols(t, func() *brisk.Server {
		return &brisk.Server{Handler: RequestID(RequestIDConfig{TrustIncoming: true})(func(c *brisk.Ctx) {
			for v := range c.Request.Header.Values("X-Request-ID") {
				c.Response.Write(append(v, ';'))
			}
		})}
	}, func(t *testing.T, c *http.Client, base string) {
		resp, body := send(t, c, "GET", base+"/", "X-Request-ID: edge-42", "X-Request-ID: x\"y")
		id := resp.Header.Get("X-Request-ID")
		if !hexID.MatchString(id) || body != id+";" {
			t.Errorf("answered %q, handler saw %q; want a new ID, alone", id, body)
		}
	})
}
