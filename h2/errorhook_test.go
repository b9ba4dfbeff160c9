package h2

import (
	"io"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestErrorHandlerBridged: over h2 and h2c, the Server's ErrorHandler
// shapes the 500 of a handler panic and Ctx.Error's responses, as on
// HTTP/1.1, and a HEAD gets no body.
func TestErrorHandlerBridged(t *testing.T) {
	for _, tlsOn := range []bool{true, false} {
		srv := &brisk.Server{H2C: !tlsOn,
			Handler: func(c *brisk.Ctx) {
				if strings.HasPrefix(string(c.Request.Path()), "/panic") {
					panic("boom")
				}
				c.Error(502, nil)
			},
			ErrorHandler: func(c *brisk.Ctx, code int, err error) {
				c.Response.Header.Set("Content-Type", "application/json")
				c.Response.WriteString(`{"error":"` + err.Error() + `"}`)
			},
		}
		if err := Configure(srv, Config{}); err != nil {
			t.Fatal(err)
		}
		addr := serve(t, srv, tlsOn)
		scheme := map[bool]string{true: "https", false: "http"}[tlsOn]
		client := h2Client(t, tlsOn)
		for _, tc := range []struct{ method, path, want string }{
			{"GET", "/panic", `{"error":"brisk: handler panicked"}`},
			{"GET", "/upstream", `{"error":"brisk: Bad Gateway"}`},
			{"HEAD", "/upstream", ``},
		} {
			resp, err := client.Do(mustRequest(t, tc.method, scheme+"://"+addr+tc.path, nil))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.ProtoMajor != 2 || string(body) != tc.want || resp.Header.Get("Content-Type") != "application/json" {
				t.Errorf("%s %s %s: %s %d %q %q", scheme, tc.method, tc.path, resp.Proto, resp.StatusCode, body, resp.Header.Get("Content-Type"))
			}
		}
	}
}
