package brisk

import (
	"math"
	"strings"
	"testing"

	"github.com/brisk-http/brisk/wire"
)

// TestHeadBound: headBound is never less than what appendHead appends,
// over status codes, reason phrases, fields, framings and connection
// options; headBuf relies on it to keep the write buffer from growing.
func TestHeadBound(t *testing.T) {
	for code := 100; code < 600; code++ {
		if n := len(wire.StatusText(code)); n > maxStatusTextLen {
			t.Fatalf("StatusText(%d) has %d bytes, maxStatusTextLen %d", code, n, maxStatusTextLen)
		}
	}
	s := &Server{Name: "brisk-test"}
	s.start()
	defer s.date.halt()
	c := newConn(s)
	r := &c.ctx.Response
	for _, status := range []int{200, 204, 304, 404, 511, 599} {
		for _, reason := range []string{"", "OK", strings.Repeat("r", 300)} {
			for nf := range 4 {
				for _, framing := range []wire.Framing{wire.FramingLength, wire.FramingChunked, wire.FramingNone, wire.FramingClose} {
					for _, keep := range []bool{true, false} {
						for _, minor := range []uint8{0, 1} {
							r.Reset()
							r.SetStatusCode(status)
							r.SetReason(reason)
							for i := range nf {
								r.Header.Add(strings.Repeat("N", i*7+1), strings.Repeat("v", i*100))
							}
							c.keepAlive = keep
							c.ctx.Request.head.Minor = minor
							p := headPlan{status: status, framing: framing, length: math.MaxInt64, scan: scanFields(&r.Header)}
							got, bound := len(c.appendHead(nil, r, &p)), c.headBound(r)
							if got > bound {
								t.Fatalf("status %d, reason of %d bytes, %d fields, framing %v, keep-alive %v, HTTP/1.%d: head of %d bytes, bound %d",
									status, len(reason), nf, framing, keep, minor, got, bound)
							}
						}
					}
				}
			}
		}
	}
}
