package middleware

import (
	"net/http"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestTimeout: the handler sees a deadline; one that returns after it
// is answered 503 through the ErrorHandler, keeping the middleware
// fields set before; one that returns in time keeps its response; over
// HTTP/1.1 and h2.
func TestTimeout(t *testing.T) {
	protocols(t, func() *brisk.Server {
		h := RequestID(RequestIDConfig{})(Timeout(50 * time.Millisecond)(func(c *brisk.Ctx) {
			if _, ok := c.Context().Deadline(); !ok {
				c.Response.SetBodyString("no deadline")
				return
			}
			if string(c.Request.Path()) == "/slow" {
				<-c.Context().Done()
			}
			c.Response.SetBodyString("done")
		}))
		return &brisk.Server{Handler: h, ErrorHandler: func(c *brisk.Ctx, code int, err error) {
			c.Response.SetBodyString("shaped: " + err.Error())
		}}
	}, func(t *testing.T, c *http.Client, base string) {
		if resp, body := send(t, c, "GET", base+"/fast"); resp.StatusCode != 200 || body != "done" {
			t.Errorf("fast: %d %q", resp.StatusCode, body)
		}
		resp, body := send(t, c, "GET", base+"/slow")
		if resp.StatusCode != 503 || body != "shaped: "+ErrTimeout.Error() || resp.Header.Get("X-Request-ID") == "" {
			t.Errorf("slow: %d %q (request ID %q)", resp.StatusCode, body, resp.Header.Get("X-Request-ID"))
		}
	})
}

// TestTimeoutZero: a zero duration returns the handler unchanged.
func TestTimeoutZero(t *testing.T) {
	called := false
	h := func(c *brisk.Ctx) { called = true }
	Timeout(0)(h)(new(brisk.Ctx))
	if !called {
		t.Error("handler not called")
	}
}
