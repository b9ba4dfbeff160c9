package compress

import (
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestStreamTakenBackByError: a handler that streamed a compressible
// body, none of which has left, then answers Ctx.Error gets the error
// response alone: no Content-Encoding and not a byte of the abandoned
// compressed stream after the error body.
func TestStreamTakenBackByError(t *testing.T) {
	for _, coding := range []string{Gzip, Zstd, Brotli} {
		t.Run(coding, func(t *testing.T) {
			do := serve(t, Config{}, func(c *brisk.Ctx) {
				c.Response.Header.Set("Content-Type", "text/plain")
				c.BodyWriter().WriteString(strings.Repeat("hello world ", 200))
				c.Error(500, nil)
			})
			resp, body := do("GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: " + coding + "\r\n")
			if resp.StatusCode != 500 || resp.Header.Get("Content-Encoding") != "" || string(body) != "Internal Server Error\n" {
				t.Errorf("%d Content-Encoding %q body %q; want 500, none, %q", resp.StatusCode,
					resp.Header.Get("Content-Encoding"), body, "Internal Server Error\n")
			}
		})
	}
}
