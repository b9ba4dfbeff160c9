package brisk

import (
	"strings"
	"testing"
	"time"
)

// TestMinRequestBodyRateCountsBytesWithHead: body bytes that arrived with
// the head count toward MinRequestBodyRate like those read later. A
// client that sent 1000 bytes (1 s at 1000 bytes/s) with its head, then
// stalls for 5 grace periods, has kept the rate and gets its answer.
func TestMinRequestBodyRateCountsBytesWithHead(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{
			MinRequestBodyRate: testRate, MinRequestBodyRateGrace: testGrace,
			Handler: func(c *Ctx) {
				b, err := c.Request.Body()
				if err != nil {
					c.Response.SetStatusCode(ErrorStatus(err))
					return
				}
				c.Response.SetBody(b)
			},
		})
		c := ts.connect()
		first, rest := strings.Repeat("a", 1000), strings.Repeat("b", 10)
		c.sendSync("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1010\r\n\r\n" + first)
		time.Sleep(5 * testGrace)
		c.sendSync(rest)
		resp, got := c.read("POST")
		if resp.StatusCode != 200 || got != first+rest {
			t.Fatalf("got %d, %d bytes, want 200 and the 1010-byte body", resp.StatusCode, len(got))
		}
	})
}
