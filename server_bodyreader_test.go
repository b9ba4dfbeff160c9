package brisk

import (
	"fmt"
	"io"
	"testing"
)

// TestBodyReaderEmptyRead checks that a Read into an empty slice reads
// nothing and fails nothing (io.Reader): the body is read whole after it.
func TestBodyReaderEmptyRead(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
			r := c.Request.BodyReader()
			n0, err0 := r.Read(nil)
			b, err := io.ReadAll(r)
			fmt.Fprintf(&c.Response, "%d %v %q %v", n0, err0, b, err)
		}})
		c := ts.connect()
		for _, req := range []string{
			post("hello"),
			"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
		} {
			if _, got := c.roundTrip(req); got != `0 <nil> "hello" <nil>` {
				t.Fatalf("got %s", got)
			}
		}
		c.expectOpen()
	})
}
